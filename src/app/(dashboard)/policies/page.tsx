import type { Metadata } from "next";
import { byCursor, getQueryClient, HydrateClient, trpc } from "@/trpc/server";
import { PoliciesView } from "./_components/policies-view";

export const metadata: Metadata = { title: "Policies" };

export default async function PoliciesPage() {
  // The first page of the list comes with the HTML (the same input as PoliciesView's, unfiltered).
  await getQueryClient().prefetchInfiniteQuery(trpc.policies.list.infiniteQueryOptions({ limit: 20 }, byCursor));
  return (
    <HydrateClient>
      <PoliciesView />
    </HydrateClient>
  );
}
