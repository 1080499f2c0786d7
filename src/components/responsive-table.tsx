"use client";

// A table on wide screens; on narrow ones each row becomes a card listing
// every field with its header, so nothing is cut off or scrolled sideways.
import { Fragment, type ReactNode } from "react";
import { cn } from "@/lib/cn";

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** Figures line up on the right in the table. */
  numeric?: boolean;
  /** Extra classes of the table cell (wide screens only). */
  className?: string;
  /** Takes a whole line of the card on narrow screens (long text: emails, descriptions). */
  wide?: boolean;
}

export function ResponsiveTable<T>({
  label,
  rows,
  columns,
  rowKey,
  testId,
  expanded,
}: {
  label: string;
  rows: T[];
  /** The first column names the row: it heads each card on narrow screens. */
  columns: [Column<T>, ...Column<T>[]];
  rowKey: (row: T) => string;
  testId?: string;
  /** What a row shows below it when open (null: nothing): a full-width table row, or the card's end. */
  expanded?: (row: T) => ReactNode;
}) {
  const [first, ...rest] = columns;
  return (
    <>
      {/* Focusable so that a table wider than the screen can be scrolled from the keyboard. */}
      <div role="region" aria-label={`${label} table`} tabIndex={0} className="hidden overflow-x-auto md:block">
        <table className="w-full text-left text-sm" aria-label={label}>
          <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-600">
            <tr>
              {columns.map((c) => (
                <th key={c.header} scope="col" className={cn("px-3 py-2.5 font-medium", c.numeric && "text-right")}>
                  {c.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {rows.map((row) => {
              const more = expanded?.(row);
              return (
                <Fragment key={rowKey(row)}>
                  <tr className="hover:bg-slate-50" data-testid={testId}>
                    {columns.map((c) => (
                      <td
                        key={c.header}
                        className={cn(
                          "px-3 py-2.5 align-top",
                          c.numeric ? "whitespace-nowrap text-right tabular-nums" : "[overflow-wrap:anywhere]",
                          c.className,
                        )}
                      >
                        {c.cell(row)}
                      </td>
                    ))}
                  </tr>
                  {more != null && (
                    <tr className="bg-slate-50">
                      <td colSpan={columns.length} className="px-3 py-3">
                        {more}
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </div>
      <ul className="divide-y divide-slate-200 md:hidden" aria-label={label}>
        {rows.map((row) => {
          const more = expanded?.(row);
          return (
            <li key={rowKey(row)} className="px-4 py-3" data-testid={testId}>
              <div className="text-sm font-medium text-slate-900 [overflow-wrap:anywhere]">{first.cell(row)}</div>
              <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
                {rest.map((c) => (
                  <div key={c.header} className={cn("min-w-0", c.wide && "col-span-2")}>
                    {c.header ? <dt className="text-xs text-slate-600">{c.header}</dt> : <dt className="sr-only">Actions</dt>}
                    <dd className="tabular-nums text-slate-900 [overflow-wrap:anywhere]">{c.cell(row)}</dd>
                  </div>
                ))}
              </dl>
              {more != null && <div className="mt-3">{more}</div>}
            </li>
          );
        })}
      </ul>
    </>
  );
}
