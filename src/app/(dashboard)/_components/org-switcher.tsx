"use client";

import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Building2, Check, ChevronsUpDown, Plus } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Skeleton } from "@/components/ui/card";
import { useFreshNavigation } from "@/lib/use-fresh-navigation";
import { errorInfo, useTRPC } from "@/trpc/react";
import { CreateOrganizationDialog } from "./create-organization-dialog";

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
      <DropdownMenu.Root>
        <DropdownMenu.Trigger
          className="flex w-full items-center gap-2 rounded-md border border-slate-200 bg-white px-3 py-2 text-left text-sm hover:bg-slate-50"
          aria-label="Switch organization"
        >
          <Building2 className="h-4 w-4 shrink-0 text-slate-500" aria-hidden />
          <span className="min-w-0 flex-1">
            <span className="block truncate font-medium">{current.data?.name ?? "Organization"}</span>
            <span className="block text-xs capitalize text-slate-500">{current.data?.role.toLowerCase()}</span>
          </span>
          <ChevronsUpDown className="h-4 w-4 text-slate-400" aria-hidden />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="start"
            sideOffset={6}
            className="z-50 w-64 rounded-md border border-slate-200 bg-white p-1 shadow-lg"
          >
            <DropdownMenu.Label className="px-2 py-1.5 text-xs font-medium text-slate-500">Organizations</DropdownMenu.Label>
            {list.data?.data.map((org) => (
              <DropdownMenu.Item
                key={org.id}
                onSelect={() => org.id !== current.data?.id && switchOrg.mutate({ organizationId: org.id })}
                className="flex cursor-pointer items-center gap-2 rounded px-2 py-2 text-sm outline-none data-[highlighted]:bg-slate-100"
              >
                <span className="min-w-0 flex-1 truncate">{org.name}</span>
                {org.id === current.data?.id && <Check className="h-4 w-4 text-brand-600" aria-label="current" />}
              </DropdownMenu.Item>
            ))}
            <DropdownMenu.Separator className="my-1 h-px bg-slate-200" />
            <DropdownMenu.Item
              onSelect={() => setCreating(true)}
              className="flex cursor-pointer items-center gap-2 rounded px-2 py-2 text-sm outline-none data-[highlighted]:bg-slate-100"
            >
              <Plus className="h-4 w-4" aria-hidden /> Create organization
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <CreateOrganizationDialog open={creating} onOpenChange={setCreating} onCreated={() => go("/")} />
    </>
  );
}
