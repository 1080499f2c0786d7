"use client";

// The customer's renewal reminders (what went, for which cover and period, and
// how the mail fared) and, in test mode, the test clock that moves a cover's
// end so reminders and the coverage.expiring / coverage.expired webhooks
// can be seen at once.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Clock } from "lucide-react";
import Link from "next/link";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { toast } from "@/lib/toast";
import { ResponsiveTable } from "@/components/responsive-table";
import { Button } from "@/components/ui/button";
import { Badge, Card, ErrorState, Skeleton } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/field";
import { formatDate, formatDateTime } from "@/lib/format";
import { errorInfo, useTRPC } from "@/trpc/react";
import { useMe } from "../../_components/me";

interface CoverageChoice {
  id: string;
  policyName: string;
  endsAt: string;
  status: string;
}

const MAIL_TONE = { sent: "green", queued: "amber", failed: "red" } as const;
const days = (n: number) => `${n} day${n === 1 ? "" : "s"}`;
/** After a simulation the worker sends within seconds: look again meanwhile. */
const WATCH_MS = 15_000;

export function RemindersSection({ customerId, coverages }: { customerId: string; coverages: CoverageChoice[] }) {
  const trpc = useTRPC();
  const { livemode, can } = useMe();
  const [watching, setWatching] = useState(false);
  const stopWatching = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(stopWatching.current), []);
  const watch = () => {
    setWatching(true);
    clearTimeout(stopWatching.current);
    stopWatching.current = setTimeout(() => setWatching(false), WATCH_MS);
  };
  const reminders = useQuery(
    trpc.customers.reminders.queryOptions({ id: customerId }, { refetchInterval: watching ? 2000 : false }),
  );

  return (
    <>
      {!livemode && can.manage && coverages.length > 0 && (
        <SimulateEnd customerId={customerId} coverages={coverages} onSimulated={watch} />
      )}
      <Card role="region" aria-label="Reminders sent">
        <h2 className="border-b border-slate-200 px-4 py-3 text-base font-semibold sm:px-6">
          Reminders sent {reminders.data && <span className="font-normal text-slate-600">({reminders.data.length})</span>}
        </h2>
        {reminders.isPending ? (
          <div className="space-y-2 p-4 sm:px-6" role="status" aria-label="Loading the reminders">
            <Skeleton className="h-6 w-full" />
            <Skeleton className="h-6 w-2/3" />
          </div>
        ) : reminders.isError ? (
          <ErrorState message={errorInfo(reminders.error).message} onRetry={() => reminders.refetch()} />
        ) : reminders.data.length === 0 ? (
          <p className="px-6 py-4 text-sm text-slate-600">
            No renewal reminders yet. They are emailed on the days before a cover ends set in{" "}
            <Link href="/settings" className="font-medium text-brand-700 hover:underline">
              Settings
            </Link>
            .
          </p>
        ) : (
          <ResponsiveTable
            label="Reminders sent"
            rows={reminders.data}
            rowKey={(r) => r.id}
            testId="customer-reminder"
            columns={[
              {
                header: "Policy",
                cell: (r) => (
                  <Link href={`/policies/${r.policyId}`} className="font-medium text-brand-700 hover:underline">
                    {r.policyName}
                  </Link>
                ),
              },
              { header: "Days before", numeric: true, cell: (r) => days(r.daysBefore) },
              { header: "Cover ends", cell: (r) => formatDate(r.periodEndsAt) },
              { header: "Sent", cell: (r) => formatDateTime(r.mail.sentAt ?? r.createdAt) },
              {
                header: "Email",
                cell: (r) => (
                  <span className="inline-flex flex-wrap items-center gap-1">
                    <Badge tone={MAIL_TONE[r.mail.status]}>{r.mail.status}</Badge>
                    {r.mail.error && <span className="text-xs text-slate-600">{r.mail.error}</span>}
                  </span>
                ),
              },
            ]}
          />
        )}
      </Card>
    </>
  );
}

function SimulateEnd({
  customerId,
  coverages,
  onSimulated,
}: {
  customerId: string;
  coverages: CoverageChoice[];
  onSimulated: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const simulate = useMutation(trpc.coverages.simulateEnd.mutationOptions());
  const [coverageId, setCoverageId] = useState(coverages[0]!.id);
  const [inDays, setInDays] = useState("3");
  const [error, setError] = useState<string | undefined>();

  const run = async (endsInDays: number) => {
    setError(undefined);
    try {
      const c = await simulate.mutateAsync({ coverageId, endsInDays });
      toast.success(
        c.status === "expired"
          ? "The cover has ended: coverage.expired goes out now"
          : `The cover now ends on ${formatDate(c.endsAt)}`,
      );
      onSimulated();
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: trpc.customers.get.queryKey({ id: customerId }) }),
        queryClient.invalidateQueries({ queryKey: trpc.customers.reminders.queryKey({ id: customerId }) }),
      ]);
    } catch (err) {
      const info = errorInfo(err);
      const field = info.fieldErrors.find((f) => f.path.startsWith("endsInDays"));
      if (field) setError(field.message);
      else toast.error(info.message);
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const n = Number(inDays);
    if (!/^-?\d+$/.test(inDays.trim()) || n < -365 || n > 365) return setError("Enter a whole number from -365 to 365");
    void run(n);
  };

  return (
    <Card className="border-amber-300 p-4 sm:p-6" role="region" aria-label="Simulate end of cover">
      <h2 className="flex items-center gap-2 text-base font-semibold">
        <Clock className="h-4 w-4" aria-hidden /> Simulate end of cover
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Test mode only. Moves the cover&apos;s end as if time had passed: the renewal reminders due are emailed and the{" "}
        <code>coverage.expiring</code> and <code>coverage.expired</code> webhooks go out within seconds.
      </p>
      <form onSubmit={submit} noValidate className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
        {coverages.length > 1 && (
          <div className="space-y-1.5">
            <label htmlFor="simulate-coverage" className="block text-sm font-medium text-slate-700">
              Cover
            </label>
            <select
              id="simulate-coverage"
              className="h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm sm:w-56"
              value={coverageId}
              onChange={(e) => setCoverageId(e.target.value)}
            >
              {coverages.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.policyName} (ends {formatDate(c.endsAt)})
                </option>
              ))}
            </select>
          </div>
        )}
        <Field id="simulate-days" label="Ends in (days)" error={error}>
          <Input
            id="simulate-days"
            inputMode="numeric"
            className="sm:w-32"
            value={inDays}
            aria-invalid={!!error}
            aria-describedby={error ? "simulate-days-error" : undefined}
            onChange={(e) => {
              setInDays(e.target.value);
              setError(undefined);
            }}
          />
        </Field>
        <div className="flex gap-2">
          <Button type="submit" variant="secondary" loading={simulate.isPending}>
            Simulate
          </Button>
          <Button type="button" variant="secondary" disabled={simulate.isPending} onClick={() => void run(0)}>
            End now
          </Button>
        </div>
      </form>
    </Card>
  );
}
