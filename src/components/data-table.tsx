"use client";

import type { InfiniteData, UseInfiniteQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { ResponsiveTable, type Column } from "@/components/responsive-table";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, ErrorState, Skeleton } from "@/components/ui/card";
import { errorInfo } from "@/trpc/react";

export type { Column } from "@/components/responsive-table";

/**
 * A paginated list: loading, error and empty states, then a table on wide
 * screens and a card per row on narrow ones (every field shown), and "Load more".
 */
export function DataTable<T>({
  query,
  columns,
  rowKey,
  empty,
  label,
  testId,
  expanded,
}: {
  query: UseInfiniteQueryResult<InfiniteData<{ data: T[]; nextCursor: string | null }>, unknown>;
  /** The first column names the row: it heads each card on narrow screens. */
  columns: [Column<T>, ...Column<T>[]];
  rowKey: (row: T) => string;
  empty: { title: string; description?: string; icon?: ReactNode; action?: ReactNode };
  label: string;
  testId?: string;
  /** What an open row shows below it (null: nothing). */
  expanded?: (row: T) => ReactNode;
}) {
  const rows = query.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <Card>
      {query.isPending ? (
        <div className="space-y-3 p-6" role="status" aria-label={`Loading ${label}`}>
          <Skeleton className="h-5 w-1/2" />
          <Skeleton className="h-5 w-2/3" />
          <Skeleton className="h-5 w-1/3" />
        </div>
      ) : query.isError ? (
        <ErrorState message={errorInfo(query.error).message} onRetry={() => query.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState {...empty} />
      ) : (
        <ResponsiveTable label={label} rows={rows} columns={columns} rowKey={rowKey} testId={testId} expanded={expanded} />
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
