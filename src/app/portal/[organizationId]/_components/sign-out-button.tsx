"use client";

import { LogOut } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { portalCall } from "./api";

export function SignOutButton({ organizationId, email }: { organizationId: string; email: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  return (
    <div className="flex min-w-0 items-center gap-2 text-sm">
      <span className="hidden truncate opacity-90 sm:inline" data-testid="portal-email">
        {email}
      </span>
      <button
        type="button"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          await portalCall(`/api/portal/${organizationId}/session`, { method: "DELETE" }).catch(() => undefined);
          router.replace(`/portal/${organizationId}`);
          router.refresh();
        }}
        className="inline-flex h-9 shrink-0 items-center gap-1.5 rounded-md border border-current/40 px-3 font-medium hover:bg-black/10"
      >
        <LogOut className="h-4 w-4" aria-hidden /> Sign out
      </button>
    </div>
  );
}
