"use client";

import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { ChevronDown, Download, FileSpreadsheet, FileText } from "lucide-react";
import { Fragment } from "react";
import { Button } from "@/components/ui/button";

export type ExportType = "revenue" | "transactions" | "payments" | "claims" | "api-usage";

const LABEL: Record<ExportType, string> = {
  revenue: "Revenue",
  transactions: "Transactions",
  payments: "Payments",
  claims: "Claims",
  "api-usage": "API usage",
};

const FORMATS = [
  { format: "csv", label: "CSV", icon: FileText },
  { format: "xlsx", label: "Excel", icon: FileSpreadsheet },
] as const;

/** The session-authenticated download of one export; the server names the file. */
export function exportHref(type: ExportType, format: "csv" | "xlsx", range: { from: string; to: string }, granularity?: string) {
  const params = new URLSearchParams({ type, format, from: range.from, to: range.to });
  if (granularity) params.set("granularity", granularity);
  return `/api/export?${params}`;
}

/**
 * A menu of plain download links for the period on screen: the browser
 * fetches the file with the session cookie and saves it, no script involved.
 */
export function ExportMenu({
  types,
  range,
  granularity,
}: {
  types: ExportType[];
  range: { from: string; to: string };
  /** Sent with the API-usage export (its buckets). */
  granularity?: "hour" | "day";
}) {
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        <Button variant="secondary" size="sm">
          <Download className="h-4 w-4" aria-hidden /> Export <ChevronDown className="h-4 w-4" aria-hidden />
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={6}
          collisionPadding={8}
          className="z-50 w-60 max-w-[calc(100vw-16px)] rounded-md border border-slate-200 bg-white p-1 shadow-lg"
        >
          {types.map((type, i) => (
            <Fragment key={type}>
              {i > 0 && <DropdownMenu.Separator className="my-1 h-px bg-slate-200" />}
              <DropdownMenu.Group>
                <DropdownMenu.Label className="px-2 pb-1 pt-1.5 text-xs font-medium text-slate-600">
                  {LABEL[type]}
                </DropdownMenu.Label>
                <div className="grid grid-cols-2 gap-1">
                  {FORMATS.map(({ format, label, icon: Icon }) => (
                    <DropdownMenu.Item key={format} asChild>
                      <a
                        href={exportHref(type, format, range, type === "api-usage" ? granularity : undefined)}
                        download
                        aria-label={`${LABEL[type]}, ${label}`}
                        className="flex cursor-pointer items-center gap-2 rounded px-2 py-2 text-sm text-slate-800 outline-none data-[highlighted]:bg-slate-100"
                      >
                        <Icon className="h-4 w-4 text-slate-600" aria-hidden /> {label}
                      </a>
                    </DropdownMenu.Item>
                  ))}
                </div>
              </DropdownMenu.Group>
            </Fragment>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
