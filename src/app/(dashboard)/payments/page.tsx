import type { Metadata } from "next";
import { byCursor, getQueryClient, HydrateClient, trpc } from "@/trpc/server";
import { filterValues, type PageSearchParams } from "@/lib/filter-values";
import { PAYMENT_FILTERS, paymentFilters } from "./_components/filters";
import { PaymentsView } from "./_components/payments-view";

export const metadata: Metadata = { title: "Payments" };

export default async function PaymentsPage({ searchParams }: { searchParams: PageSearchParams }) {
  // The first page of payments and their totals come with the HTML, for the filters in the address.
  const filters = paymentFilters(filterValues(PAYMENT_FILTERS, await searchParams));
  const client = getQueryClient();
  await Promise.all([
    client.prefetchInfiniteQuery(trpc.payments.search.infiniteQueryOptions({ limit: 20, ...filters }, byCursor)),
    client.prefetchQuery(trpc.payments.totals.queryOptions(filters)),
    client.prefetchQuery(trpc.organizations.current.queryOptions()),
  ]);
  return (
    <HydrateClient>
      <PaymentsView />
    </HydrateClient>
  );
}
