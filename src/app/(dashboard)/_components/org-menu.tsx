"use client";

// The organization switcher's Radix menu, loaded when it is first pressed (see lazyMenu).
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { Check, Plus } from "lucide-react";
import type { LazyMenuProps } from "@/components/ui/lazy-menu";

const ITEM = "flex cursor-pointer items-center gap-2 rounded px-2 py-2 text-sm outline-none data-[highlighted]:bg-slate-100";

export function OrgMenu({
  trigger,
  defaultOpen,
  organizations,
  currentId,
  onSwitch,
  onCreate,
}: LazyMenuProps & {
  organizations: { id: string; name: string }[] | undefined;
  currentId: string | undefined;
  onSwitch: (organizationId: string) => void;
  onCreate: () => void;
}) {
  return (
    <DropdownMenu.Root defaultOpen={defaultOpen}>
      <DropdownMenu.Trigger asChild>{trigger}</DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="start" sideOffset={6} className="z-50 w-64 rounded-md border border-slate-200 bg-white p-1 shadow-lg">
          <DropdownMenu.Label className="px-2 py-1.5 text-xs font-medium text-slate-500">Organizations</DropdownMenu.Label>
          {organizations?.map((org) => (
            <DropdownMenu.Item key={org.id} onSelect={() => org.id !== currentId && onSwitch(org.id)} className={ITEM}>
              <span className="min-w-0 flex-1 truncate">{org.name}</span>
              {org.id === currentId && <Check className="h-4 w-4 text-brand-600" aria-label="current" />}
            </DropdownMenu.Item>
          ))}
          <DropdownMenu.Separator className="my-1 h-px bg-slate-200" />
          <DropdownMenu.Item onSelect={onCreate} className={ITEM}>
            <Plus className="h-4 w-4" aria-hidden /> Create organization
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
