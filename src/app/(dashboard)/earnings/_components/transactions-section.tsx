"use client";

import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { Download, Receipt } from "lucide-react";
import { useState } from "react";
import { toast } from "@/lib/toast";
import { DataTable } from "@/components/data-table";
import { Badge } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/field";
import { NativeSelect } from "@/components/ui/select";
import { downloadText, toCsv } from "@/lib/csv";
import { cn } from "@/lib/cn";
import { fromNotAfterTo, RANGE_MESSAGES } from "@/lib/date-range";
import { formatDateTime } from "@/lib/format";
import { displayMoney } from "@/lib/money-format";
import { errorInfo, useTRPC } from "@/trpc/react";
import { TRANSACTION_LABEL, TRANSACTION_TYPES, type LedgerTransaction, type TransactionType } from "./types";

const CSV_COLUMNS = ["id", "createdAt", "type", "amount", "fee", "net", "balanceAfter", "currency", "reference", "description"] as const;
/** Written as numbers; every other column is text, neutralized against formulas (see src/lib/csv.ts). */
const CSV_NUMBERS = ["amount", "fee", "net", "balanceAfter"] as const;
const PAGE = 50;
/** The download fetches every page of the filter; this many rows at most (the API's export is for more). */
const CSV_MAX_ROWS = 20_000;

interface Filter {
  type: TransactionType | "all";
  from: string;
  to: string;
}

const TONE = {
  payment: "green",
  fee: "slate",
  withdrawal: "blue",
  withdrawal_reversal: "amber",
  refund: "blue",
  refund_reversal: "amber",
  claim_payout: "blue",
  claim_payout_reversal: "amber",
} as const;

export function TransactionsSection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<Filter>({ type: "all", from: "", to: "" });
  const [downloading, setDownloading] = useState(false);
  // The API's own rule and sentence (ListTransactionsQuery refines with them): a reversed range is refused.
  const rangeError = fromNotAfterTo(filter) ? null : RANGE_MESSAGES.order;
  // One row per payment, its fee on it (gross, fee, net), unless the fees themselves are asked for.
  const input = {
    fees: "folded" as const,
    type: filter.type === "all" ? undefined : filter.type,
    from: filter.from || undefined,
    to: filter.to || undefined,
  };
  const transactions = useInfiniteQuery(
    trpc.earnings.transactions.infiniteQueryOptions(
      { ...input, limit: PAGE },
      { getNextPageParam: (l) => l.nextCursor ?? undefined, enabled: !rangeError },
    ),
  );
  const filtered = filter.type !== "all" || filter.from !== "" || filter.to !== "";

  const download = async () => {
    setDownloading(true);
    try {
      const rows: LedgerTransaction[] = [];
      let cursor: string | undefined;
      do {
        const page = await queryClient.fetchQuery(
          trpc.earnings.transactions.queryOptions({ ...input, limit: 100, cursor }, { staleTime: 0 }),
        );
        rows.push(...page.data);
        cursor = page.nextCursor ?? undefined;
      } while (cursor && rows.length < CSV_MAX_ROWS);
      const name = ["transactions", input.type, input.from, input.to].filter(Boolean).join("-");
      downloadText(`${name}.csv`, toCsv(CSV_COLUMNS, rows, CSV_NUMBERS));
      if (cursor) toast.warning(`Only the newest ${rows.length} transactions were downloaded. Narrow the dates for the rest.`);
    } catch (err) {
      toast.error(`Could not download the transactions: ${errorInfo(err).message}`);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <section aria-labelledby="transactions-heading" className="space-y-3">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2 id="transactions-heading" className="text-base font-semibold text-slate-900">
            Transactions
          </h2>
          <p className="text-sm text-slate-600">Every movement of your balance, newest first; each payment with the fee taken from it.</p>
        </div>
        <Button variant="secondary" size="sm" loading={downloading} disabled={!!rangeError} onClick={download}>
          <Download className="h-4 w-4" aria-hidden /> Download CSV
        </Button>
      </div>
      <div className="grid gap-3 sm:grid-cols-3">
        <Field id="tx-type" label="Type">
          <NativeSelect
            id="tx-type"
            value={filter.type}
            onChange={(e) => setFilter({ ...filter, type: e.target.value as Filter["type"] })}
          >
            <option value="all">All types</option>
            {TRANSACTION_TYPES.map((t) => (
              <option key={t} value={t}>
                {TRANSACTION_LABEL[t]}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id="tx-from" label="From">
          <Input
            id="tx-from"
            type="date"
            value={filter.from}
            max={filter.to || undefined}
            aria-invalid={!!rangeError}
            onChange={(e) => setFilter({ ...filter, from: e.target.value })}
          />
        </Field>
        <Field id="tx-to" label="To" error={rangeError ?? undefined}>
          <Input
            id="tx-to"
            type="date"
            value={filter.to}
            min={filter.from || undefined}
            aria-invalid={!!rangeError}
            onChange={(e) => setFilter({ ...filter, to: e.target.value })}
          />
        </Field>
      </div>
      {!rangeError && (
        <DataTable<LedgerTransaction>
          label="Transactions"
          query={transactions}
          rowKey={(t) => t.id}
          empty={{
            icon: <Receipt className="h-10 w-10" />,
            title: filtered ? "No transactions match" : "No transactions yet",
            description: filtered
              ? "Change the type or the dates to see more."
              : "Your customers' payments, Coverdesk's fees and your withdrawals appear here.",
            action: filtered && (
              <Button variant="secondary" size="sm" onClick={() => setFilter({ type: "all", from: "", to: "" })}>
                Clear filters
              </Button>
            ),
          }}
          columns={[
            {
              header: "Transaction",
              cell: (t) => (
                <span className="block min-w-0">
                  <Badge tone={TONE[t.type as TransactionType] ?? "slate"}>
                    {TRANSACTION_LABEL[t.type as TransactionType] ?? t.type}
                  </Badge>
                  <span className="mt-1 block text-slate-900 [overflow-wrap:anywhere]">{t.description}</span>
                  <span className="block font-mono text-xs font-normal text-slate-600 [overflow-wrap:anywhere]">
                    {t.reference}
                  </span>
                </span>
              ),
            },
            {
              header: "Date",
              className: "text-slate-600 md:whitespace-nowrap",
              cell: (t) => formatDateTime(t.createdAt),
            },
            {
              header: "Amount",
              numeric: true,
              cell: (t) => (
                <span className="block">
                  <span className={cn("font-medium", t.amount.startsWith("-") ? "text-slate-900" : "text-emerald-700")}>
                    {t.amount.startsWith("-") ? "" : "+"}
                    {displayMoney(t.amount, t.currency)}
                  </span>
                  {t.fee !== null && t.net !== null && (
                    <span className="block text-xs font-normal text-slate-600" data-testid="transaction-fee">
                      fee −{displayMoney(t.fee, t.currency)} · net {displayMoney(t.net, t.currency)}
                    </span>
                  )}
                </span>
              ),
            },
            // The running balance; a list filtered by type leaves entries out, so it has none.
            ...(filter.type === "all"
              ? [
                  {
                    header: "Balance",
                    numeric: true,
                    className: "text-slate-700",
                    cell: (t: LedgerTransaction) => (
                      <span data-testid="transaction-balance">
                        {t.balanceAfter === null ? "—" : displayMoney(t.balanceAfter, t.currency)}
                      </span>
                    ),
                  },
                ]
              : []),
          ]}
        />
      )}
    </section>
  );
}
