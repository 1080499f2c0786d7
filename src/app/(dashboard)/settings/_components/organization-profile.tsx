"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { toast } from "@/lib/toast";
import { Card, ErrorState, Skeleton } from "@/components/ui/card";
import { lazyComponent } from "@/components/lazy-component";
import { errorInfo, useTRPC } from "@/trpc/react";
import { useMe } from "../../_components/me";

const loading = (
  <div className="space-y-3">
    <Skeleton className="h-10 w-full" />
    <Skeleton className="h-10 w-full" />
  </div>
);
// The form (react-hook-form) loads alongside the profile, not with the page.
const OrganizationForm = lazyComponent(() => import("@/components/organization-form").then((m) => m.OrganizationForm), loading);

export function OrganizationProfile() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { can } = useMe();
  const org = useQuery(trpc.organizations.current.queryOptions());
  const lock = useQuery(trpc.organizations.currencyLock.queryOptions());
  const update = useMutation(trpc.organizations.update.mutationOptions());
  useEffect(() => OrganizationForm.preload(), []);

  return (
    <Card className="p-6">
      <h2 className="text-base font-semibold">Organization profile</h2>
      <p className="mb-5 mt-1 text-sm text-slate-600">Shown to your customers on checkout pages and receipts.</p>
      {org.isPending ? (
        loading
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
