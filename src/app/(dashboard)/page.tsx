import { currentSession } from "@/server/session/current";
import { filterValues, type PageSearchParams } from "@/lib/filter-values";
import { byCursor, getQueryClient, HydrateClient, trpc } from "@/trpc/server";
import { rangeOf } from "./_analytics/range-of";
import { HomeView } from "./_home/home-view";

// The greeting and the figures of the period in the address come with the page (the same queries as HomeView's).
export default async function HomePage({ searchParams }: { searchParams: PageSearchParams }) {
  const session = await currentSession();
  const firstName = session?.user.name.split(" ")[0] ?? "there";
  const { from, to } = filterValues(["from", "to"], await searchParams);
  const range = rangeOf(from || null, to || null);
  const period = { from: range.from, to: range.to };
  const client = getQueryClient();
  await Promise.all([
    client.prefetchQuery(trpc.analytics.dashboard.queryOptions(period)),
    client.prefetchQuery(trpc.analytics.revenue.queryOptions({ ...period, granularity: "day" })),
    client.prefetchQuery(trpc.analytics.apiUsage.queryOptions({ ...period, granularity: "day" })),
    client.prefetchQuery(trpc.analytics.overview.queryOptions()),
    client.prefetchQuery(trpc.renewals.summary.queryOptions()),
    client.prefetchInfiniteQuery(trpc.analytics.activity.infiniteQueryOptions({ limit: 10 }, byCursor)),
  ]);
  return (
    <HydrateClient>
      <HomeView firstName={firstName} />
    </HydrateClient>
  );
}
