"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { Activity, ClipboardList, CreditCard, RefreshCw, ShoppingBag, type LucideIcon } from "lucide-react";
import Link from "next/link";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, ErrorState } from "@/components/ui/card";
import { cn } from "@/lib/cn";
import { errorInfo, useTRPC } from "@/trpc/react";
import { formatDateTimeUtc, timeAgo } from "../_analytics/format";
import { ListSkeleton } from "../_analytics/section";
import type { ActivityItem } from "../_analytics/types";

const PAGE = 10;
/** Relative times ("5 minutes ago") are recomputed this often. */
const TICK_MS = 60_000;

const KIND: Record<ActivityItem["type"], { icon: LucideIcon; label: string; tone: string }> = {
  "policy.purchased": { icon: ShoppingBag, label: "Purchase", tone: "bg-emerald-50 text-emerald-700" },
  "policy.renewed": { icon: RefreshCw, label: "Renewal", tone: "bg-brand-50 text-brand-700" },
  "payment.completed": { icon: CreditCard, label: "Payment", tone: "bg-slate-100 text-slate-700" },
  "claim.submitted": { icon: ClipboardList, label: "Claim", tone: "bg-amber-50 text-amber-800" },
};

function useNow(intervalMs: number) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** Purchases, renewals, payments and claims as they happen, newest first. */
export function ActivityFeed() {
  const trpc = useTRPC();
  const now = useNow(TICK_MS);
  const feed = useInfiniteQuery(
    trpc.analytics.activity.infiniteQueryOptions({ limit: PAGE }, { getNextPageParam: (l) => l.nextCursor ?? undefined }),
  );
  const items = feed.data?.pages.flatMap((p) => p.data) ?? [];

  return (
    <Card className="min-w-0 p-4 sm:p-5">
      <section aria-labelledby="activity-heading">
        <h2 id="activity-heading" className="mb-3 text-base font-semibold text-slate-900">
          Activity
        </h2>
        {feed.isPending ? (
          <ListSkeleton rows={5} />
        ) : feed.isError ? (
          <ErrorState message={errorInfo(feed.error).message} onRetry={() => feed.refetch()} />
        ) : items.length === 0 ? (
          <EmptyState
            icon={<Activity className="h-10 w-10" />}
            title="Nothing has happened yet"
            description="Purchases, renewals, payments and claims appear here as they happen."
          />
        ) : (
          <ol className="divide-y divide-slate-200" aria-label="Activity">
            {items.map((item) => {
              const kind = KIND[item.type];
              const body = (
                <>
                  <span className={cn("mt-0.5 flex h-8 w-8 shrink-0 items-center justify-center rounded-full", kind.tone)}>
                    <kind.icon className="h-4 w-4" aria-hidden />
                  </span>
                  <span className="min-w-0 flex-1">
                    <span className="sr-only">{kind.label}: </span>
                    <span className="block break-words text-sm text-slate-900">{item.summary}</span>
                    <time
                      dateTime={item.createdAt}
                      title={formatDateTimeUtc(item.createdAt)}
                      className="block text-xs text-slate-600"
                    >
                      {timeAgo(item.createdAt, now)}
                    </time>
                  </span>
                </>
              );
              return (
                <li key={item.id} data-testid="activity-item" data-type={item.type}>
                  {item.href ? (
                    <Link href={item.href} className="flex gap-3 py-2.5 hover:bg-slate-50">
                      {body}
                    </Link>
                  ) : (
                    <div className="flex gap-3 py-2.5">{body}</div>
                  )}
                </li>
              );
            })}
          </ol>
        )}
        {feed.hasNextPage && (
          <div className="mt-3 text-center">
            <Button variant="secondary" size="sm" loading={feed.isFetchingNextPage} onClick={() => feed.fetchNextPage()}>
              Load more
            </Button>
          </div>
        )}
      </section>
    </Card>
  );
}
