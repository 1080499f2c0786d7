"use client";

import { useMutation } from "@tanstack/react-query";
import { OrganizationForm } from "@/components/organization-form";
import { useFreshNavigation } from "@/lib/use-fresh-navigation";
import { errorInfo, useTRPC } from "@/trpc/react";

export function OnboardingForm({ email }: { email: string }) {
  const trpc = useTRPC();
  const go = useFreshNavigation();
  const create = useMutation(trpc.organizations.create.mutationOptions());
  return (
    <OrganizationForm
      defaultValues={{ email }}
      submitLabel="Create organization"
      onSubmit={async (values) => {
        try {
          await create.mutateAsync(values);
          go("/");
        } catch (err) {
          return errorInfo(err);
        }
      }}
    />
  );
}
