"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { lazyComponent } from "@/components/lazy-component";
import { Card, ErrorState, Skeleton } from "@/components/ui/card";
import { errorInfo, useTRPC } from "@/trpc/react";
import { useMe } from "../../_components/me";

const loading = (
  <div className="space-y-3">
    <Skeleton className="h-6 w-1/2" />
    <Skeleton className="h-10 w-40" />
  </div>
);
// The form (react-hook-form) loads alongside the settings, not with the page.
const SettingsFields = lazyComponent(() => import("./settings-fields").then((m) => m.SettingsFields), loading);

export function SettingsForm() {
  const trpc = useTRPC();
  const { can } = useMe();
  const settings = useQuery(trpc.settings.get.queryOptions());
  useEffect(() => SettingsFields.preload(), []);

  return (
    <Card className="p-6">
      <h2 className="text-base font-semibold">Notifications and API</h2>
      <p className="mb-5 mt-1 text-sm text-slate-600">How we reach you, and how fast your integrations may call us.</p>
      {settings.isPending ? (
        loading
      ) : settings.isError ? (
        <ErrorState message={errorInfo(settings.error).message} onRetry={() => settings.refetch()} />
      ) : (
        <SettingsFields settings={settings.data} canEdit={can.admin} />
      )}
    </Card>
  );
}
