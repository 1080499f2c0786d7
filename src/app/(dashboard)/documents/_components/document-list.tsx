"use client";

import type { InfiniteData, UseInfiniteQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, ErrorState, Skeleton } from "@/components/ui/card";
import { errorInfo } from "@/trpc/react";

/** A paginated list of documents: loading, error (with retry) and empty states, rows, and "Load more". */
export function DocumentList<T extends { id: string }>({
  query,
  label,
  empty,
  row,
}: {
  query: UseInfiniteQueryResult<InfiniteData<{ data: T[]; nextCursor: string | null }>, unknown>;
  label: string;
  empty: { title: string; description?: string; icon?: ReactNode };
  row: (item: T, index: number) => ReactNode;
}) {
  const items = query.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <Card>
      {query.isPending ? (
        <div className="space-y-4 p-6" aria-label={`Loading ${label}`}>
          {[0, 1].map((i) => (
            <div key={i} className="flex items-center gap-4">
              <Skeleton className="h-16 w-16" />
              <div className="flex-1 space-y-2">
                <Skeleton className="h-4 w-1/3" />
                <Skeleton className="h-3 w-1/2" />
              </div>
            </div>
          ))}
        </div>
      ) : query.isError ? (
        <ErrorState message={errorInfo(query.error).message} onRetry={() => query.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState {...empty} />
      ) : (
        <ul role="list" aria-label={label} className="divide-y divide-slate-200">
          {items.map(row)}
        </ul>
      )}
      {query.hasNextPage && (
        <div className="border-t border-slate-200 p-4 text-center">
          <Button variant="secondary" size="sm" loading={query.isFetchingNextPage} onClick={() => query.fetchNextPage()}>
            Load more
          </Button>
        </div>
      )}
    </Card>
  );
}
