"use client";

import { ArrowRight } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { StatusBadge } from "@/components/status-badge";
import { displayMoney } from "@/lib/money-format";
import { formatCount, formatDateTimeUtc } from "../_analytics/format";
import type { DashboardStats } from "../_analytics/types";

export function ViewAll({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link href={href} className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline">
      {children} <ArrowRight className="h-4 w-4" aria-hidden />
    </Link>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return <p className="rounded-md bg-slate-50 px-4 py-6 text-center text-sm text-slate-600">{children}</p>;
}

/** Up to 5 policies by gross in the period. */
export function TopPolicies({ stats }: { stats: DashboardStats }) {
  if (stats.topPolicies.length === 0) return <Empty>No policies sold in this period.</Empty>;
  return (
    <ol className="divide-y divide-slate-200" aria-label="Top policies">
      {stats.topPolicies.map((p, i) => (
        <li key={p.policyId} className="flex items-center gap-3 py-2.5" data-testid="top-policy">
          <span className="w-5 shrink-0 text-sm tabular-nums text-slate-400" aria-hidden>
            {i + 1}
          </span>
          <span className="min-w-0 flex-1">
            <Link
              href={`/policies/${p.policyId}`}
              className="block break-words text-sm font-medium text-slate-900 hover:underline"
            >
              {p.name}
            </Link>
            <span className="block text-xs text-slate-600">{formatCount(p.sold)} sold</span>
          </span>
          <span className="shrink-0 text-sm font-medium tabular-nums text-slate-900">
            {displayMoney(p.gross, stats.currency)}
          </span>
        </li>
      ))}
    </ol>
  );
}

/** The 5 newest payments, whatever the period. */
export function RecentPayments({ stats }: { stats: DashboardStats }) {
  if (stats.recentPayments.length === 0) return <Empty>No payments yet.</Empty>;
  return (
    <ul className="divide-y divide-slate-200" aria-label="Recent payments">
      {stats.recentPayments.map((p) => (
        <li key={p.reference} data-testid="recent-payment">
          <Link href="/payments" className="flex items-start gap-3 py-2.5 hover:bg-slate-50">
            <span className="min-w-0 flex-1">
              <span className="block break-all text-sm font-medium text-slate-900">{p.email}</span>
              <span className="block text-xs text-slate-600">
                <time dateTime={p.createdAt}>{formatDateTimeUtc(p.createdAt)}</time>
              </span>
            </span>
            <span className="flex shrink-0 flex-col items-end gap-1">
              <span className="text-sm font-medium tabular-nums text-slate-900">{displayMoney(p.amount, p.currency)}</span>
              <StatusBadge status={p.status} />
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** The 5 newest claims, whatever the period. */
export function RecentClaims({ stats }: { stats: DashboardStats }) {
  if (stats.recentClaims.length === 0) return <Empty>No claims yet.</Empty>;
  return (
    <ul className="divide-y divide-slate-200" aria-label="Recent claims">
      {stats.recentClaims.map((c) => (
        <li key={c.id} data-testid="recent-claim">
          <Link href={`/claims/${c.id}`} className="flex items-start gap-3 py-2.5 hover:bg-slate-50">
            <span className="min-w-0 flex-1">
              <span className="block text-sm font-medium text-slate-900">{`${c.type[0]!.toUpperCase()}${c.type.slice(1)} claim`}</span>
              <span className="block text-xs text-slate-600 [overflow-wrap:anywhere]">{c.description}</span>
              <span className="block text-xs text-slate-600">
                <time dateTime={c.createdAt}>{formatDateTimeUtc(c.createdAt)}</time>
              </span>
            </span>
            <span className="flex shrink-0 flex-col items-end gap-1">
              <span className="text-sm font-medium tabular-nums text-slate-900">{displayMoney(c.amount, c.currency)}</span>
              <StatusBadge status={c.status} />
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
