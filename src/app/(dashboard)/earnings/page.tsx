import type { Metadata } from "next";
import { byCursor, getQueryClient, HydrateClient, trpc } from "@/trpc/server";
import { EarningsView } from "./_components/earnings-view";

export const metadata: Metadata = { title: "Earnings" };

// Readable by every member; withdrawing is for owners and admins (the view hides it from the others).
// The balances, the chart, the withdrawals and the first transactions come with the page (EarningsView's queries).
export default async function EarningsPage() {
  const client = getQueryClient();
  await Promise.all([
    client.prefetchQuery(trpc.earnings.overview.queryOptions()),
    client.prefetchQuery(trpc.earnings.series.queryOptions({})),
    client.prefetchInfiniteQuery(trpc.earnings.withdrawals.infiniteQueryOptions({ limit: 20 }, byCursor)),
    client.prefetchInfiniteQuery(trpc.earnings.transactions.infiniteQueryOptions({ fees: "folded", limit: 50 }, byCursor)),
  ]);
  return (
    <HydrateClient>
      <EarningsView />
    </HydrateClient>
  );
}
