"use client";

// The account menu's Radix part, loaded by the shell when the menu is first
// pressed (see lazyMenu): change password, security (two-factor sign-in), sign out.
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { KeyRound, LogOut, ShieldCheck, UserRound } from "lucide-react";
import { useRef } from "react";
import type { LazyMenuProps } from "@/components/ui/lazy-menu";

const ITEM =
  "flex cursor-pointer items-center gap-2 rounded px-2 py-2 text-sm text-slate-700 outline-none data-[highlighted]:bg-slate-100";

export function AccountMenu({
  trigger,
  defaultOpen,
  onChangePassword,
  onProfile,
  onSecurity,
  onSignOut,
}: LazyMenuProps & { onChangePassword: () => void; onProfile: () => void; onSecurity: () => void; onSignOut: () => void }) {
  const passwordChosen = useRef(false);
  return (
    <DropdownMenu.Root defaultOpen={defaultOpen}>
      <DropdownMenu.Trigger asChild>{trigger}</DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          side="top"
          align="start"
          sideOffset={6}
          // Focus goes to the dialog being opened, not back to this menu's button.
          onCloseAutoFocus={(event) => {
            if (passwordChosen.current) event.preventDefault();
            passwordChosen.current = false;
          }}
          className="z-50 w-[var(--radix-dropdown-menu-trigger-width)] min-w-48 rounded-md border border-slate-200 bg-white p-1 shadow-lg"
        >
          <DropdownMenu.Item
            onSelect={() => {
              passwordChosen.current = true;
              onChangePassword();
            }}
            className={ITEM}
          >
            <KeyRound className="h-4 w-4" aria-hidden /> Change password
          </DropdownMenu.Item>
          <DropdownMenu.Item onSelect={onProfile} className={ITEM}>
            <UserRound className="h-4 w-4" aria-hidden /> Profile and devices
          </DropdownMenu.Item>
          <DropdownMenu.Item onSelect={onSecurity} className={ITEM}>
            <ShieldCheck className="h-4 w-4" aria-hidden /> Security
          </DropdownMenu.Item>
          <DropdownMenu.Item onSelect={onSignOut} className={ITEM}>
            <LogOut className="h-4 w-4" aria-hidden /> Sign out
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
