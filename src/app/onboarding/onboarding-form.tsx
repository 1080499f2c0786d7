"use client";

import { useMutation } from "@tanstack/react-query";
import { OrganizationForm } from "@/components/organization-form";
import { errorInfo, useTRPC } from "@/trpc/react";

export function OnboardingForm({ email }: { email: string }) {
  const trpc = useTRPC();
  const create = useMutation(trpc.organizations.create.mutationOptions());
  return (
    <OrganizationForm
      defaultValues={{ email }}
      submitLabel="Create organization"
      onSubmit={async (values) => {
        try {
          await create.mutateAsync(values);
          window.location.assign("/");
        } catch (err) {
          return errorInfo(err);
        }
      }}
    />
  );
}
