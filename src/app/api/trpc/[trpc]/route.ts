import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { RETRY_AFTER_SECONDS } from "@/server/errors";
import { createContext } from "@/server/trpc/init";
import { appRouter } from "@/server/trpc/root";
import { counted } from "@/server/operations/busy";

export const dynamic = "force-dynamic";

const handler = counted((req: Request) =>
  fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: () => createContext({ headers: req.headers }),
    responseMeta: ({ ctx, errors }) => ({
      headers: {
        ...(ctx?.requestId ? { "X-Request-Id": ctx.requestId } : {}),
        // The database was saturated: shed (503), retry shortly.
        ...(errors.some((e) => e.code === "SERVICE_UNAVAILABLE") ? { "Retry-After": String(RETRY_AFTER_SECONDS) } : {}),
      },
    }),
  }),
);

export { handler as GET, handler as POST };
