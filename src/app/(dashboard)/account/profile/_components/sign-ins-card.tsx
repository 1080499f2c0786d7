"use client";

// The account's sign-in history (profile.signIns): each success and each refused password or code, newest first.
import { useQuery } from "@tanstack/react-query";
import { Badge, Card, EmptyState, ErrorState, Skeleton } from "@/components/ui/card";
import { errorInfo, useTRPC } from "@/trpc/react";

const REASONS = { wrong_password: "Wrong password", wrong_code: "Wrong two-factor code" } as const;
const when = (iso: string) =>
  new Date(iso).toLocaleString("en-GB", { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" });

export function SignInsCard() {
  const trpc = useTRPC();
  const signIns = useQuery(trpc.profile.signIns.queryOptions());
  return (
    <Card className="overflow-hidden" role="region" aria-label="Sign-in history">
      <div className="border-b border-slate-200 p-4 sm:p-6">
        <h2 className="text-base font-semibold">Sign-in history</h2>
        <p className="mt-1 text-sm text-slate-600">
          The latest sign-ins to your account and the refused attempts. A sign-in from a new device is also emailed to you.
        </p>
      </div>
      {signIns.isPending ? (
        <div className="space-y-3 p-4 sm:p-6" role="status" aria-label="Loading your sign-ins">
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-10 w-full" />
        </div>
      ) : signIns.isError ? (
        <div className="p-4 sm:p-6">
          <ErrorState message={errorInfo(signIns.error).message} onRetry={() => signIns.refetch()} />
        </div>
      ) : signIns.data.data.length === 0 ? (
        <EmptyState title="No sign-ins yet" description="Your sign-ins will be listed here." />
      ) : (
        <ul className="divide-y divide-slate-200" aria-label="Sign-ins">
          {signIns.data.data.map((s) => (
            <li key={s.id} className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:items-center sm:justify-between sm:px-6">
              <div className="min-w-0">
                <p className="text-sm text-slate-900">
                  {s.browser} on {s.system}
                </p>
                <p className="break-words text-xs text-slate-500">
                  {s.ipAddress ?? "Address unknown"} · {when(s.at)}
                </p>
              </div>
              <span className="self-start sm:self-auto">
                {s.success ? (
                  <Badge tone="green">Signed in</Badge>
                ) : (
                  <Badge tone="red">{s.reason ? REASONS[s.reason] : "Refused"}</Badge>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
