"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { Building2, ChevronsUpDown } from "lucide-react";
import { useState } from "react";
import { lazyDialog } from "@/components/lazy-dialog";
import { Skeleton } from "@/components/ui/card";
import { lazyMenu } from "@/components/ui/lazy-menu";
import { toast } from "@/lib/toast";
import { useFreshNavigation } from "@/lib/use-fresh-navigation";
import { errorInfo, useTRPC } from "@/trpc/react";

// Loaded when first used: the menu (Radix) and the create dialog (its form and schema).
const OrgMenu = lazyMenu(() => import("./org-menu").then((m) => m.OrgMenu));
const CreateOrganizationDialog = lazyDialog(() =>
  import("./create-organization-dialog").then((m) => m.CreateOrganizationDialog),
);

export function OrgSwitcher() {
  const trpc = useTRPC();
  const go = useFreshNavigation();
  const current = useQuery(trpc.organizations.current.queryOptions());
  const list = useQuery(trpc.organizations.list.queryOptions());
  const [creating, setCreating] = useState(false);
  const switchOrg = useMutation(
    trpc.organizations.switch.mutationOptions({
      // Everything on screen belongs to the old organization: reload it all.
      onSuccess: () => go("/"),
      onError: (err) => toast.error(errorInfo(err).message),
    }),
  );

  if (current.isPending) return <Skeleton className="h-11 w-full" />;

  return (
    <>
      <OrgMenu
        trigger={
          <button
            type="button"
            className="flex w-full items-center gap-2 rounded-md border border-slate-200 bg-white px-3 py-2 text-left text-sm hover:bg-slate-50"
          >
            <Building2 className="h-4 w-4 shrink-0 text-slate-500" aria-hidden />
            <span className="min-w-0 flex-1">
              <span className="block truncate font-medium">{current.data?.name ?? "Organization"}</span>
              <span className="block text-xs capitalize text-slate-500">{current.data?.role.toLowerCase()}</span>
              {/* The name a screen reader hears starts with the visible text (WCAG 2.5.3, label in name). */}
              <span className="sr-only">: switch organization</span>
            </span>
            <ChevronsUpDown className="h-4 w-4 text-slate-400" aria-hidden />
          </button>
        }
        organizations={list.data?.data}
        currentId={current.data?.id}
        onSwitch={(organizationId) => switchOrg.mutate({ organizationId })}
        onCreate={() => setCreating(true)}
      />
      <CreateOrganizationDialog open={creating} onOpenChange={setCreating} onCreated={() => go("/")} />
    </>
  );
}
