"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { toast } from "@/lib/toast";
import { Card, ErrorState, PageHeader, Skeleton } from "@/components/ui/card";
import { errorInfo, useTRPC } from "@/trpc/react";
import { LazyPolicyForm as PolicyForm } from "../../_components/lazy-policy-form";

export function EditPolicy({ id }: { id: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const policy = useQuery(trpc.policies.get.queryOptions({ id }));
  const update = useMutation(trpc.policies.update.mutationOptions());
  useEffect(() => PolicyForm.preload(), []);

  if (policy.isPending) return <Skeleton className="h-96 w-full" />;
  if (policy.isError) {
    return (
      <Card>
        <ErrorState message={errorInfo(policy.error).message} onRetry={() => policy.refetch()} />
      </Card>
    );
  }
  return (
    <>
      <PageHeader title={`Edit “${policy.data.name}”`} description="Changes apply to new purchases and renewals." />
      <PolicyForm
        policy={policy.data}
        currency={policy.data.currency}
        submitLabel="Save changes"
        onCancel={() => router.push(`/policies/${id}`)}
        onSubmit={async (input) => {
          try {
            await update.mutateAsync({ id, data: input.update });
            await queryClient.invalidateQueries({ queryKey: trpc.policies.pathKey() });
            toast.success("Policy saved");
            router.push(`/policies/${id}`);
          } catch (err) {
            return errorInfo(err);
          }
        }}
      />
    </>
  );
}
