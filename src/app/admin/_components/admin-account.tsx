"use client";

import { ArrowLeft, LogOut } from "lucide-react";
import Link from "next/link";
import { loadAuthClient } from "@/lib/lazy-auth-client";
import { useFreshNavigation } from "@/lib/use-fresh-navigation";

export function AdminAccount({ email, hasDashboard }: { email: string; hasDashboard: boolean }) {
  const go = useFreshNavigation();
  const signOut = async () => {
    const authClient = await loadAuthClient();
    await authClient.signOut();
    go("/sign-in");
  };
  return (
    <div className="flex shrink-0 items-center gap-1 sm:gap-3">
      <span className="hidden max-w-56 truncate text-sm text-slate-600 md:inline" title={email}>
        {email}
      </span>
      {/* An operator without an organization has no dashboard to go back to. */}
      {hasDashboard && (
        <Link
          href="/"
          className="inline-flex items-center gap-1.5 rounded-md px-2 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100"
        >
          <ArrowLeft className="h-4 w-4" aria-hidden />
          <span>Dashboard</span>
        </Link>
      )}
      <button
        type="button"
        onClick={signOut}
        aria-label="Sign out"
        className="inline-flex items-center gap-1.5 rounded-md px-2 py-1.5 text-sm text-slate-600 hover:bg-slate-100 hover:text-slate-900"
      >
        <LogOut className="h-4 w-4" aria-hidden />
        <span className="hidden sm:inline">Sign out</span>
      </button>
    </div>
  );
}
