import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { tracked } from "@/server/lifecycle";
import { createContext } from "@/server/trpc/init";
import { appRouter } from "@/server/trpc/root";

export const dynamic = "force-dynamic";

const handler = (req: Request) =>
  tracked(() =>
    fetchRequestHandler({
      endpoint: "/api/trpc",
      req,
      router: appRouter,
      createContext: () => createContext({ headers: req.headers }),
      responseMeta: ({ ctx }) => ({ headers: ctx?.requestId ? { "X-Request-Id": ctx.requestId } : {} }),
    }),
  );

export { handler as GET, handler as POST };
