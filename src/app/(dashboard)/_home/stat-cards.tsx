"use client";

import { ArrowDownRight, ArrowRight, ArrowUpRight, Minus } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { Card, ErrorState, Skeleton } from "@/components/ui/card";
import { cn } from "@/lib/cn";
import { displayMoney } from "@/lib/money-format";
import { errorInfo } from "@/trpc/react";
import { changeOf, formatChange, formatCount, formatPercent } from "../_analytics/format";
import type { RenewalSummary } from "@/lib/schemas/renewals";
import type { DashboardStats } from "../_analytics/types";

export function StatCardsSkeleton() {
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Loading figures">
      {Array.from({ length: 6 }, (_, i) => (
        <Card key={i} className="space-y-3 p-5">
          <Skeleton className="h-4 w-24" />
          <Skeleton className="h-7 w-32" />
          <Skeleton className="h-3 w-40" />
        </Card>
      ))}
    </div>
  );
}

export function StatCardsError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <Card>
      <ErrorState message={errorInfo(error).message} onRetry={onRetry} />
    </Card>
  );
}

/** The period's figures, each against the same number of days just before where that means something. */
export function StatCards({
  stats,
  days,
  recurring,
}: {
  stats: DashboardStats;
  days: number;
  /** The recurring premium of auto-renewing covers (absent while it loads). */
  recurring?: RenewalSummary;
}) {
  const money = (amount: string) => displayMoney(amount, stats.currency);
  const previousDays = `the previous ${days} ${days === 1 ? "day" : "days"}`;
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      <Stat
        testId="stat-revenue"
        label="Revenue"
        value={money(stats.revenue.current)}
        change={<Change change={stats.revenue.change} hasCurrent={stats.revenue.current !== "0.00"} />}
      >
        {money(stats.revenue.previous)} in {previousDays}
      </Stat>
      <Stat
        testId="stat-policies-sold"
        label="Policies sold"
        value={formatCount(stats.policiesSold.current)}
        change={
          <Change
            change={changeOf(stats.policiesSold.current, stats.policiesSold.previous)}
            hasCurrent={stats.policiesSold.current > 0}
          />
        }
      >
        {formatCount(stats.policiesSold.previous)} in {previousDays} · purchases and renewals
      </Stat>
      <Stat testId="stat-active-coverages" label="Active coverages" value={formatCount(stats.activeCoverages)}>
        Customers covered today
      </Stat>
      <Stat
        testId="stat-open-claims"
        label="Open claims"
        value={formatCount(stats.openClaims)}
        link={{ href: "/claims", label: "Review claims" }}
      >
        Submitted or under review
      </Stat>
      <Stat testId="stat-loss-ratio" label="Loss ratio" value={formatPercent(stats.lossRatio)}>
        {stats.lossRatio === null ? "No premium in this period to compare claims with" : "Approved and paid claims ÷ (premium − refunds), this period"}
      </Stat>
      <Stat
        testId="stat-available-balance"
        label="Available balance"
        value={money(stats.availableBalance)}
        link={{ href: "/earnings", label: "Go to earnings" }}
        emphasis
      >
        <span data-testid="available-why">
          {stats.todos.kybStatus !== "approved"
            ? "Withdrawable once your KYB is approved"
            : !stats.todos.hasVerifiedBankAccount
              ? "Withdrawable once a bank account is verified"
              : "Ready to withdraw"}
        </span>
      </Stat>
      {recurring && <RecurringStat summary={recurring} />}
    </div>
  );
}

/** Recurring premium per month, with the renewal charges collected this month against last month. */
function RecurringStat({ summary }: { summary: RenewalSummary }) {
  const [previous, current] = summary.collected.slice(-2).map((m) => Number(m.amount));
  return (
    <Stat
      testId="stat-recurring-premium"
      label="Recurring premium / month"
      value={displayMoney(summary.recurringPremiumPerMonth, summary.currency)}
      change={<Change change={changeOf(current ?? 0, previous ?? 0)} hasCurrent={(current ?? 0) > 0} />}
      link={{ href: "/renewals", label: "See renewals" }}
    >
      {summary.autoRenewing} on automatic renewal
      {summary.pastDue > 0 ? ` · ${summary.pastDue} past due` : ""} · change: renewals collected this month vs last
    </Stat>
  );
}

/** The change with its sign, an arrow and words, so colour is never the only cue. */
function Change({ change, hasCurrent }: { change: number | null; hasCurrent: boolean }) {
  const text = formatChange(change);
  if (text === null) {
    return hasCurrent ? (
      <span className="inline-flex items-center rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">
        New this period
      </span>
    ) : null;
  }
  const direction = change! > 0 ? "up" : change! < 0 ? "down" : "flat";
  const Icon = { up: ArrowUpRight, down: ArrowDownRight, flat: Minus }[direction];
  return (
    <span
      data-testid="stat-change"
      aria-label={
        direction === "flat"
          ? "No change from the previous period"
          : `${direction === "up" ? "Up" : "Down"} ${text.slice(1)} from the previous period`
      }
      className={cn(
        "inline-flex items-center gap-0.5 rounded-full px-2 py-0.5 text-xs font-medium tabular-nums",
        direction === "up" && "bg-emerald-50 text-emerald-700",
        direction === "down" && "bg-red-50 text-red-700",
        direction === "flat" && "bg-slate-100 text-slate-700",
      )}
    >
      <Icon className="h-3 w-3" aria-hidden />
      {text}
    </span>
  );
}

function Stat({
  label,
  value,
  change,
  link,
  emphasis,
  testId,
  children,
}: {
  label: string;
  value: string;
  change?: ReactNode;
  link?: { href: string; label: string };
  emphasis?: boolean;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Card className={cn("flex min-w-0 flex-col p-5", emphasis && "border-brand-100 bg-brand-50/50")}>
      <p className="text-sm text-slate-600">{label}</p>
      <p className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1">
        <span className="break-all text-2xl font-semibold tabular-nums text-slate-900" data-testid={testId}>
          {value}
        </span>
        {change}
      </p>
      <p className="mt-1 flex-1 text-xs text-slate-600">{children}</p>
      {link && (
        <Link
          href={link.href}
          className="mt-3 inline-flex items-center gap-1 self-start text-sm font-medium text-brand-700 hover:underline"
        >
          {link.label} <ArrowRight className="h-4 w-4" aria-hidden />
        </Link>
      )}
    </Card>
  );
}
