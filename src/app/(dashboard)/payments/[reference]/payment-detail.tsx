"use client";

import { useQuery } from "@tanstack/react-query";
import { CheckCircle2, Circle, ExternalLink, XCircle } from "lucide-react";
import Link from "next/link";
import { CopyButton } from "@/components/copy-button";
import { BackLink, Facts } from "@/components/detail";
import { StatusBadge } from "@/components/status-badge";
import { Badge, Card, EmptyState, ErrorState, PageHeader, Skeleton } from "@/components/ui/card";
import { formatDate, formatDateTime } from "@/lib/format";
import { displayMoney } from "@/lib/money-format";
import type { PaymentDetail as Detail } from "@/lib/schemas/payments";
import { errorInfo, useTRPC } from "@/trpc/react";
import { PaymentRefunds } from "./payment-refunds";

export function PaymentDetail({ reference }: { reference: string }) {
  const trpc = useTRPC();
  const payment = useQuery(trpc.payments.detail.queryOptions({ reference }));

  if (payment.isPending) {
    return (
      <div className="space-y-4" role="status" aria-label="Loading the payment">
        <Skeleton className="h-8 w-64" />
        <Skeleton className="h-48 w-full" />
      </div>
    );
  }
  if (payment.isError) {
    const info = errorInfo(payment.error);
    return (
      <>
        <BackLink href="/payments">Payments</BackLink>
        <Card>
          {info.code === "not_found" ? (
            <EmptyState title="Payment not found" description="It does not exist or belongs to another organization." />
          ) : (
            <ErrorState message={info.message} onRetry={() => payment.refetch()} />
          )}
        </Card>
      </>
    );
  }
  const p = payment.data;
  const money = (v: string | null) => (v === null ? "—" : displayMoney(v, p.currency));

  return (
    <>
      <BackLink href="/payments">Payments</BackLink>
      <PageHeader
        title={`${displayMoney(p.amount, p.currency)} from ${p.customer.name ?? p.email}`}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <StatusBadge status={p.status} /> <span>{p.policyName}</span>
          </span>
        }
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Card className="p-6" role="region" aria-label="Payment">
            <h2 className="mb-4 text-base font-semibold">Payment</h2>
            <Facts
              items={[
                { label: "Amount", value: money(p.amount), testId: "payment-amount" },
                { label: "Platform fee", value: money(p.fee), testId: "payment-fee" },
                { label: "Net to you", value: money(p.net), testId: "payment-net" },
                { label: "Status", value: <StatusBadge status={p.status} /> },
                {
                  label: "Reference",
                  value: <code className="font-mono text-xs">{p.reference}</code>,
                },
                {
                  label: "Paid with",
                  value: p.renewal
                    ? `Saved card (${p.provider === "sandbox" ? "sandbox" : "Paystack"}): automatic renewal, try ${p.renewal.attempt} of 4`
                    : p.provider === "sandbox"
                      ? "Sandbox checkout"
                      : "Paystack",
                  testId: "payment-paid-with",
                },
                { label: "Created", value: formatDateTime(p.createdAt) },
                { label: "Paid", value: formatDateTime(p.paidAt) },
              ]}
            />
            {p.status === "failed" && p.failureReason && (
              <p className="mt-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800" data-testid="failure-reason">
                {p.failureReason}
              </p>
            )}
            {p.status === "pending" && (
              <div className="mt-4 flex flex-wrap items-center gap-2 text-sm">
                <a
                  href={p.authorizationUrl}
                  target="_blank"
                  rel="noreferrer"
                  className="inline-flex items-center gap-1 font-medium text-brand-700 hover:underline"
                >
                  Open the checkout <ExternalLink className="h-3.5 w-3.5" aria-hidden />
                </a>
                <CopyButton value={p.authorizationUrl} label="Copy link" />
              </div>
            )}
          </Card>

          {(p.status === "success" || p.amountRefunded !== "0.00") && (
            <PaymentRefunds
              reference={p.reference}
              status={p.status}
              amount={p.amount}
              amountRefunded={p.amountRefunded}
              currency={p.currency}
              email={p.email}
            />
          )}
          <Card className="p-6" role="region" aria-label="Customer and coverage">
            <h2 className="mb-4 text-base font-semibold">Customer and coverage</h2>
            <Facts
              items={[
                {
                  label: "Customer",
                  value: p.customer.id ? (
                    <Link href={`/customers/${p.customer.id}`} className="font-medium text-brand-700 hover:underline">
                      {p.customer.name ?? p.customer.email}
                    </Link>
                  ) : (
                    (p.customer.name ?? p.customer.email)
                  ),
                  testId: "payment-customer",
                },
                { label: "Email", value: p.email },
                {
                  label: "Policy",
                  value: (
                    <Link href={`/policies/${p.policyId}`} className="font-medium text-brand-700 hover:underline">
                      {p.policyName}
                    </Link>
                  ),
                },
                {
                  label: "Coverage",
                  testId: "payment-coverage",
                  value: p.coverage ? (
                    <span>
                      {p.coverage.action === "purchased" ? "Started" : "Renewed"}: {formatDate(p.coverage.startsAt)} –{" "}
                      {formatDate(p.coverage.endsAt)} <StatusBadge status={p.coverage.status} />
                    </span>
                  ) : p.status === "success" ? (
                    "—"
                  ) : (
                    "Starts once paid"
                  ),
                },
              ]}
            />
          </Card>

          <Events events={p.events} />
        </div>

        <Card className="h-fit p-6" role="region" aria-label="Timeline">
          <h2 className="text-base font-semibold">Timeline</h2>
          <ol className="mt-4 space-y-4" aria-label="Payment timeline">
            {p.timeline.map((t) => (
              <li key={t.status} className="flex gap-3">
                {t.status === "success" ? (
                  <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0 text-emerald-700" aria-hidden />
                ) : t.status === "failed" ? (
                  <XCircle className="mt-0.5 h-4 w-4 shrink-0 text-red-700" aria-hidden />
                ) : (
                  <Circle className="mt-0.5 h-4 w-4 shrink-0 text-slate-500" aria-hidden />
                )}
                <div>
                  <p className="text-sm font-medium">
                    {t.status === "created" ? "Payment created" : t.status === "success" ? "Paid" : "Failed"}
                  </p>
                  <p className="text-xs text-slate-600">{formatDateTime(t.at)}</p>
                  {t.note && <p className="mt-1 text-sm text-slate-700">{t.note}</p>}
                </div>
              </li>
            ))}
            {p.status === "pending" && (
              <li className="flex gap-3 text-sm text-slate-600">
                <Circle className="mt-0.5 h-4 w-4 shrink-0 text-slate-400" aria-hidden /> Waiting for the customer to pay
              </li>
            )}
          </ol>
        </Card>
      </div>
    </>
  );
}

function Events({ events }: { events: Detail["events"] }) {
  return (
    <Card className="p-6" role="region" aria-label="Events and webhooks">
      <h2 className="text-base font-semibold">Events and webhooks</h2>
      {events.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No events yet: they are sent when the payment succeeds.</p>
      ) : (
        <ul className="mt-4 space-y-4">
          {events.map((e) => (
            <li key={e.id} className="rounded-md border border-slate-200 p-3" data-testid="payment-event">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <code className="font-mono text-sm font-medium">{e.type}</code>
                <span className="text-xs text-slate-600">{formatDateTime(e.createdAt)}</span>
              </div>
              <p className="mt-1 font-mono text-xs text-slate-600 [overflow-wrap:anywhere]">{e.id}</p>
              {e.deliveries.length === 0 ? (
                <p className="mt-2 text-xs text-slate-600">No webhook deliveries (no endpoint subscribed to it).</p>
              ) : (
                <ul className="mt-2 space-y-1" aria-label={`Deliveries of ${e.type}`}>
                  {e.deliveries.map((d) => (
                    <li key={d.id} className="flex flex-wrap items-center gap-2 text-xs" data-testid="payment-delivery">
                      <Badge tone={d.status === "succeeded" ? "green" : "red"}>{d.status}</Badge>
                      <span className="text-slate-700">
                        Attempt {d.attempt} · {d.responseStatus ?? d.error ?? "no answer"}
                      </span>
                      <span className="min-w-0 text-slate-600 [overflow-wrap:anywhere]">{d.url}</span>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
