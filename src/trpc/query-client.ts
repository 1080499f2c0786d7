// The dashboard's QueryClient, one per browser tab and one per server render
// (src/trpc/server.tsx): what a server component loads is sent with the page
// (dehydrated with superjson, as tRPC sends it) and read back in the browser,
// so the page's first paint is its data and the browser does not ask again
// while the data is fresh.
import { defaultShouldDehydrateQuery, QueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import superjson from "superjson";

export function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        retry: (count, err) => {
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
