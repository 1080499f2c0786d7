"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { Card, ErrorState, Skeleton } from "@/components/ui/card";
import { OrganizationForm } from "@/components/organization-form";
import { errorInfo, useTRPC } from "@/trpc/react";
import { useMe } from "../../_components/me";

export function OrganizationProfile() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { can } = useMe();
  const org = useQuery(trpc.organizations.current.queryOptions());
  const lock = useQuery(trpc.organizations.currencyLock.queryOptions());
  const update = useMutation(trpc.organizations.update.mutationOptions());

  return (
    <Card className="p-6">
      <h2 className="text-base font-semibold">Organization profile</h2>
      <p className="mb-5 mt-1 text-sm text-slate-600">Shown to your customers on checkout pages and receipts.</p>
      {org.isPending ? (
        <div className="space-y-3">
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-10 w-full" />
        </div>
      ) : org.isError ? (
        <ErrorState message={errorInfo(org.error).message} onRetry={() => org.refetch()} />
      ) : (
        <OrganizationForm
          defaultValues={{
            name: org.data.name,
            email: org.data.email ?? "",
            phone: org.data.phone ?? "",
            address: org.data.address ?? "",
            currency: org.data.currency,
          }}
          submitLabel="Save profile"
          requireChange
          currencyLocked={lock.data?.reason ?? undefined}
          disabled={!can.admin}
          onSubmit={async (values) => {
            try {
              await update.mutateAsync({ ...values, phone: values.phone ?? null, address: values.address ?? null });
              toast.success("Profile saved");
              await queryClient.invalidateQueries({ queryKey: trpc.organizations.pathKey() });
            } catch (err) {
              return errorInfo(err);
            }
          }}
        />
      )}
    </Card>
  );
}
