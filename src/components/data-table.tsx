"use client";

import type { UseInfiniteQueryResult, InfiniteData } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, ErrorState, Skeleton } from "@/components/ui/card";
import { errorInfo } from "@/trpc/react";

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  className?: string;
}

/** A paginated list: loading, error and empty states, a table, and "Load more". */
export function DataTable<T>({
  query,
  columns,
  rowKey,
  empty,
  label,
}: {
  query: UseInfiniteQueryResult<InfiniteData<{ data: T[]; nextCursor: string | null }>, unknown>;
  columns: Column<T>[];
  rowKey: (row: T) => string;
  empty: { title: string; description?: string; icon?: ReactNode; action?: ReactNode };
  label: string;
}) {
  const rows = query.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <Card>
      {query.isPending ? (
        <div className="space-y-3 p-6" aria-label={`Loading ${label}`}>
          <Skeleton className="h-5 w-1/2" />
          <Skeleton className="h-5 w-2/3" />
          <Skeleton className="h-5 w-1/3" />
        </div>
      ) : query.isError ? (
        <ErrorState message={errorInfo(query.error).message} onRetry={() => query.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState {...empty} />
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm" aria-label={label}>
            <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
              <tr>
                {columns.map((c) => (
                  <th key={c.header} scope="col" className={`px-4 py-3 font-medium ${c.className ?? ""}`}>
                    {c.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {rows.map((row) => (
                <tr key={rowKey(row)} className="hover:bg-slate-50">
                  {columns.map((c) => (
                    <td key={c.header} className={`px-4 py-3 align-top ${c.className ?? ""}`}>
                      {c.cell(row)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
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
