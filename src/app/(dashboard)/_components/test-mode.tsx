"use client";

// The dashboard's test mode: a switch in the shell, and while it is on an
// unmistakable banner over every page. Everything the pages show then comes
// from the organization's test twin (test payments, test webhooks, …); the
// team, settings and API keys are the same in both modes.
import { useMutation } from "@tanstack/react-query";
import { FlaskConical } from "lucide-react";
import { usePathname } from "next/navigation";
import { toast } from "@/lib/toast";
import { Switch } from "@/components/ui/switch";
import { errorInfo, useTRPC } from "@/trpc/react";
import { useMe } from "./me";

function useSetMode() {
  const trpc = useTRPC();
  const pathname = usePathname();
  const set = useMutation(
    trpc.organizations.setMode.mutationOptions({
      // Everything on screen and in the cache belongs to the other mode now: load the page afresh.
      onSuccess: () => window.location.assign(detailPage(pathname) ? listOf(pathname) : pathname),
      onError: (err) => toast.error(errorInfo(err).message),
    }),
  );
  return set;
}

// A record's page (/payments/cdp_…) belongs to one mode: switching goes back to its list.
const detailPage = (path: string) => /^\/(payments|customers|claims|policies)\/[^/]+/.test(path);
const listOf = (path: string) => `/${path.split("/")[1]}`;

export function TestModeSwitch() {
  const me = useMe();
  const set = useSetMode();
  return (
    <div className="flex items-center justify-between gap-3 rounded-md border border-slate-200 px-3 py-2">
      <span className="flex items-center gap-2 text-sm font-medium text-slate-800">
        <FlaskConical className="h-4 w-4 text-amber-700" aria-hidden /> Test mode
      </span>
      <Switch
        label="Test mode"
        checked={!me.livemode}
        disabled={set.isPending}
        onCheckedChange={(on) => set.mutate({ livemode: !on })}
      />
    </div>
  );
}

export function TestModeBanner() {
  const me = useMe();
  const set = useSetMode();
  if (me.livemode) return null;
  return (
    <div
      role="status"
      data-testid="test-mode-banner"
      className="flex flex-wrap items-center justify-between gap-2 border-b-2 border-amber-500 bg-amber-100 px-4 py-2 text-sm text-amber-950 sm:px-8"
    >
      <p>
        <strong className="font-semibold uppercase tracking-wide">Test mode</strong> — you are looking at test data: test
        payments, customers, claims and payouts. Nothing here is real money.
      </p>
      <button
        type="button"
        onClick={() => set.mutate({ livemode: true })}
        disabled={set.isPending}
        className="rounded-md border border-amber-700 px-2.5 py-1 text-sm font-medium text-amber-950 hover:bg-amber-200"
      >
        Back to live data
      </button>
    </div>
  );
}
