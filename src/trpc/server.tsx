// The tRPC procedures called from a server component, for a page's first data
// (habit: first paint from the server). A page awaits what it shows first —
// `getQueryClient().prefetchQuery(trpc.x.queryOptions(input))` with the same
// input its client component asks for (prefetching never throws: a query that
// failed is left out, and the browser asks again and shows its error state) —
// and wraps that component in <HydrateClient>: the data
// goes out with the HTML, the browser's query finds it fresh and does not ask
// again. The procedures run as they do for /api/trpc (the same context from
// the request's headers, so the same session, organization and mode), once
// per render: the context and the QueryClient are per request (React cache).
import "server-only";
import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import { headers } from "next/headers";
import { cache, type ReactNode } from "react";
import { createContext } from "@/server/trpc/init";
import { appRouter } from "@/server/trpc/root";
import { makeQueryClient } from "./query-client";

export const getQueryClient = cache(() => makeQueryClient({ server: true }));
const context = cache(async () => createContext({ headers: await headers() }));

export const trpc = createTRPCOptionsProxy({ ctx: context, router: appRouter, queryClient: getQueryClient });

/** What this render loaded, handed to the browser's QueryClient. */
export function HydrateClient({ children }: { children: ReactNode }) {
  return <HydrationBoundary state={dehydrate(getQueryClient())}>{children}</HydrationBoundary>;
}

/** The lists' paging, as their client components declare it (the next page after `nextCursor`). */
export const byCursor = { getNextPageParam: (last: { nextCursor?: string | null }) => last.nextCursor ?? undefined };
