"use client";

import { BookOpen, ChevronsUpDown, Menu, ShieldHalf, X } from "lucide-react";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useState, type ReactNode } from "react";
import { lazyDialog } from "@/components/lazy-dialog";
import { Logo } from "@/components/logo";
import { lazyMenu } from "@/components/ui/lazy-menu";
import { cn } from "@/lib/cn";
import { loadAuthClient } from "@/lib/lazy-auth-client";
import { useFreshNavigation } from "@/lib/use-fresh-navigation";
import type { Me } from "@/lib/schemas/organizations";
import { ReauthPrompt } from "@/components/reauth/prompt";
import { MeProvider, useMe } from "./me";
import { navFor } from "./nav";
import type { NavIcons } from "./nav-icons";
import { OrgSwitcher } from "./org-switcher";
import { TestModeBanner, TestModeSwitch } from "./test-mode";

// Loaded when first used: the account menu (Radix), the password dialog (its form and schema), the auth client.
const AccountMenu = lazyMenu(() => import("./account-menu").then((m) => m.AccountMenu));
const ChangePasswordDialog = lazyDialog(() => import("./change-password-dialog").then((m) => m.ChangePasswordDialog));

export function Shell({
  user,
  me,
  icons,
  children,
}: {
  user: { name: string; email: string; twoFactor: boolean };
  me: Me;
  /** The navigation's icons, drawn by the server layout (./nav-icons.tsx). */
  icons: NavIcons;
  children: ReactNode;
}) {
  return (
    <MeProvider me={me}>
      <Frame user={user} icons={icons}>
        {children}
      </Frame>
      <ReauthPrompt email={user.email} twoFactor={user.twoFactor} />
    </MeProvider>
  );
}

function Frame({ user, icons, children }: { user: { name: string; email: string }; icons: NavIcons; children: ReactNode }) {
  const pathname = usePathname();
  const go = useFreshNavigation();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [changingPassword, setChangingPassword] = useState(false);
  const me = useMe();
  const items = navFor(me.can);

  const nav = (
    <nav aria-label="Main" className="flex flex-col gap-1">
      {items.map((item) => {
        const active = item.href === "/" ? pathname === "/" : pathname.startsWith(item.href);
        return (
          // No prefetch: every dashboard page is rendered per request, so a prefetch fetched only the
          // route's tree (a click asks the server for the page either way), and the sidebar's dozen
          // of them reached the server with every page view (~5 ms of its CPU each), just as the
          // reader's next page was being asked for.
          <Link
            key={item.href}
            href={item.href}
            prefetch={false}
            onClick={() => setOpen(false)}
            aria-current={active ? "page" : undefined}
            className={cn(
              "flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium",
              active ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:bg-slate-100",
            )}
          >
            {icons[item.href]}
            {item.label}
          </Link>
        );
      })}
      <a
        href="/docs"
        className="flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100"
      >
        <BookOpen className="h-4 w-4" aria-hidden />
        API reference
      </a>
      {/* Coverdesk's own operators: the admin area (KYB review). */}
      {me?.platformAdmin && (
        <Link
          href="/admin"
          onClick={() => setOpen(false)}
          className="flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100"
        >
          <ShieldHalf className="h-4 w-4" aria-hidden />
          Admin
        </Link>
      )}
    </nav>
  );

  const signOut = async () => {
    const authClient = await loadAuthClient();
    await authClient.signOut();
    go("/sign-in");
  };

  // The account menu: the user's name and email, their profile and devices, password, security (two-factor sign-in), signing out.
  const account = (
    <div className="border-t border-slate-200 pt-4">
      <AccountMenu
        trigger={
          <button type="button" className="flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left hover:bg-slate-100">
            <span className="min-w-0 flex-1">
              <span className="sr-only">Account menu: </span>
              <span className="block truncate text-sm font-medium text-slate-900">{user.name}</span>
              <span className="block truncate text-xs text-slate-500">{user.email}</span>
            </span>
            <ChevronsUpDown className="h-4 w-4 shrink-0 text-slate-400" aria-hidden />
          </button>
        }
        onChangePassword={() => {
          setOpen(false);
          setChangingPassword(true);
        }}
        onProfile={() => {
          setOpen(false);
          router.push("/account/profile");
        }}
        onSecurity={() => {
          setOpen(false);
          router.push("/account/security");
        }}
        onSignOut={signOut}
      />
    </div>
  );

  return (
    <div className="min-h-screen lg:flex">
      <aside className="hidden w-64 shrink-0 flex-col gap-6 border-r border-slate-200 bg-white p-4 lg:flex">
        <Link href="/">
          <Logo />
        </Link>
        <OrgSwitcher />
        <TestModeSwitch />
        <div className="flex-1">{nav}</div>
        {account}
      </aside>

      <header className="sticky top-0 z-30 flex items-center justify-between border-b border-slate-200 bg-white px-4 py-3 lg:hidden">
        <Link href="/" className="flex items-center gap-2">
          <Logo />
          {!me.livemode && (
            <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-bold uppercase text-amber-900 ring-1 ring-amber-600">
              Test
            </span>
          )}
        </Link>
        <button type="button" onClick={() => setOpen(true)} aria-label="Open menu" className="rounded-md p-2 hover:bg-slate-100">
          <Menu className="h-5 w-5" />
        </button>
      </header>
      {open && (
        <div className="fixed inset-0 z-40 lg:hidden" role="dialog" aria-modal="true" aria-label="Menu">
          <div className="absolute inset-0 bg-slate-900/40" onClick={() => setOpen(false)} />
          <div className="absolute inset-y-0 left-0 flex w-72 max-w-[85vw] flex-col gap-6 overflow-y-auto bg-white p-4 shadow-xl">
            <div className="flex items-center justify-between">
              <Logo />
              <button
                type="button"
                onClick={() => setOpen(false)}
                aria-label="Close menu"
                className="rounded-md p-2 hover:bg-slate-100"
              >
                <X className="h-5 w-5" />
              </button>
            </div>
            <OrgSwitcher />
            <TestModeSwitch />
            <div className="flex-1">{nav}</div>
            {account}
          </div>
        </div>
      )}

      <ChangePasswordDialog email={user.email} open={changingPassword} onOpenChange={setChangingPassword} />

      <div className="flex min-w-0 flex-1 flex-col">
        <TestModeBanner />
        <main className="min-w-0 flex-1 px-4 py-6 sm:px-8 sm:py-8">
          <div className="mx-auto max-w-5xl">{children}</div>
        </main>
      </div>
    </div>
  );
}
