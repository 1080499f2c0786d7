import type { Metadata } from "next";
import { filterValues, type PageSearchParams } from "@/lib/filter-values";
import { byCursor, getQueryClient, HydrateClient, trpc } from "@/trpc/server";
import { CLAIM_FILTERS, claimFilters } from "./_components/filters";
import { ClaimsView } from "./_components/claims-view";

export const metadata: Metadata = { title: "Claims" };

export default async function ClaimsPage({ searchParams }: { searchParams: PageSearchParams }) {
  // The first page of claims comes with the HTML, for the filters in the address.
  const filters = claimFilters(filterValues(CLAIM_FILTERS, await searchParams));
  await getQueryClient().prefetchInfiniteQuery(trpc.claims.search.infiniteQueryOptions({ limit: 20, ...filters }, byCursor));
  return (
    <HydrateClient>
      <ClaimsView />
    </HydrateClient>
  );
}
