"use client";

import { LogOut } from "lucide-react";
import { useState } from "react";
import { loadAuthClient } from "@/lib/lazy-auth-client";
import { cn } from "@/lib/cn";
import { useFreshNavigation } from "@/lib/use-fresh-navigation";

/** Signs out and goes to the sign-in page. */
export function SignOutButton({ className }: { className?: string }) {
  const go = useFreshNavigation();
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        const authClient = await loadAuthClient();
        await authClient.signOut();
        go("/sign-in");
      }}
      className={cn("inline-flex items-center gap-2 text-sm text-slate-600 hover:text-slate-900 disabled:opacity-60", className)}
    >
      <LogOut className="h-4 w-4" aria-hidden /> Sign out
    </button>
  );
}
