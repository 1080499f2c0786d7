// The dashboard's QueryClient, one per browser tab and one per server render
// (src/trpc/server.tsx): what a server component loads is sent with the page
// (dehydrated with superjson, as tRPC sends it) and read back in the browser,
// so the page's first paint is its data and the browser does not ask again
// while the data is fresh.
import { defaultShouldDehydrateQuery, QueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import superjson from "superjson";

/**
 * `server`: the render's client, whose queries are never retried. A query the server cannot answer (signed
 * out, forbidden, not found, a failure) is left out of the page and asked again by the browser, which shows
 * its error; retried here it held the whole page — every server error of a tRPC caller is a TRPCError, never
 * a TRPCClientError, so the 4xx rule below did not apply: two retries, 1 s and 2 s apart, kept a signed-out
 * visitor's redirect to the sign-in page open 3 s.
 */
export function makeQueryClient({ server = false }: { server?: boolean } = {}) {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        retry: (count, err) => {
          if (server) return false;
          // 4xx answers will not change on retry.
          const status =
            err instanceof TRPCClientError ? (err.data as { httpStatus?: number } | undefined)?.httpStatus : undefined;
          return status !== undefined && status < 500 ? false : count < 2;
        },
      },
      // Only what loaded: a query the server could not answer is asked again by the browser, which shows its error.
      dehydrate: { serializeData: superjson.serialize, shouldDehydrateQuery: defaultShouldDehydrateQuery },
      hydrate: { deserializeData: superjson.deserialize },
    },
  });
}
