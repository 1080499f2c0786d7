"use client";

// The frame every block of the analytics pages shares: a titled card whose
// body is a skeleton while loading, an error with a retry, or the content.
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Card, ErrorState, Skeleton } from "@/components/ui/card";
import { cn } from "@/lib/cn";
import { errorInfo } from "@/trpc/react";

export function Section<T>({
  id,
  title,
  description,
  actions,
  query,
  skeleton = <Skeleton className="h-56 w-full" />,
  className,
  children,
}: {
  id: string;
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  query: UseQueryResult<T, unknown>;
  skeleton?: ReactNode;
  className?: string;
  children: (data: T) => ReactNode;
}) {
  return (
    <Card className={cn("min-w-0 p-4 sm:p-5", className)}>
      <section aria-labelledby={`${id}-heading`}>
        <div className="mb-4 flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h2 id={`${id}-heading`} className="text-base font-semibold text-slate-900">
              {title}
            </h2>
            {description && <p className="text-sm text-slate-600">{description}</p>}
          </div>
          {actions}
        </div>
        {query.isPending ? (
          <div aria-label={`Loading ${title.toLowerCase()}`}>{skeleton}</div>
        ) : query.isError ? (
          <ErrorState message={errorInfo(query.error).message} onRetry={() => query.refetch()} />
        ) : (
          <div className={cn("transition-opacity", query.isPlaceholderData && "opacity-60")}>{children(query.data)}</div>
        )}
      </section>
    </Card>
  );
}

/** Skeleton rows for a list. */
export function ListSkeleton({ rows = 4 }: { rows?: number }) {
  return (
    <div className="space-y-3">
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className="h-10 w-full" />
      ))}
    </div>
  );
}
