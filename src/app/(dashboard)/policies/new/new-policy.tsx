"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { toast } from "@/lib/toast";
import { PageHeader } from "@/components/ui/card";
import { errorInfo, useTRPC } from "@/trpc/react";
import { LazyPolicyForm as PolicyForm } from "../_components/lazy-policy-form";

export function NewPolicy() {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const org = useQuery(trpc.organizations.current.queryOptions());
  const create = useMutation(trpc.policies.create.mutationOptions());
  return (
    <>
      <PageHeader title="New policy" description="Customers can buy it as soon as it is created." />
      <PolicyForm
        currency={org.data?.currency ?? "NGN"}
        submitLabel="Create policy"
        onCancel={() => router.push("/policies")}
        onSubmit={async (input) => {
          try {
            const policy = await create.mutateAsync(input.create);
            await queryClient.invalidateQueries({ queryKey: trpc.policies.pathKey() });
            toast.success(`“${policy.name}” created`);
            router.push(`/policies/${policy.id}`);
          } catch (err) {
            return errorInfo(err);
          }
        }}
      />
    </>
  );
}
