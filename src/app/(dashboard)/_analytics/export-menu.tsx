"use client";

import { ChevronDown, Download } from "lucide-react";
import { Button } from "@/components/ui/button";
import { lazyMenu } from "@/components/ui/lazy-menu";

export type ExportType = "revenue" | "transactions" | "payments" | "claims" | "api-usage";

export const LABEL: Record<ExportType, string> = {
  revenue: "Revenue",
  transactions: "Transactions",
  payments: "Payments",
  claims: "Claims",
  "api-usage": "API usage",
};

/** The session-authenticated download of one export; the server names the file. */
export function exportHref(type: ExportType, format: "csv" | "xlsx", range: { from: string; to: string }, granularity?: string) {
  const params = new URLSearchParams({ type, format, from: range.from, to: range.to });
  if (granularity) params.set("granularity", granularity);
  return `/api/export?${params}`;
}

// The menu itself (Radix) loads when it is first pressed.
const ExportMenuContent = lazyMenu(() => import("./export-menu-content").then((m) => m.ExportMenuContent));

/**
 * A menu of plain download links for the period on screen: the browser
 * fetches the file with the session cookie and saves it, no script involved.
 */
export function ExportMenu(props: {
  types: ExportType[];
  range: { from: string; to: string };
  /** Sent with the API-usage export (its buckets). */
  granularity?: "hour" | "day";
}) {
  return (
    <ExportMenuContent
      {...props}
      trigger={
        <Button variant="secondary" size="sm">
          <Download className="h-4 w-4" aria-hidden /> Export <ChevronDown className="h-4 w-4" aria-hidden />
        </Button>
      }
    />
  );
}
