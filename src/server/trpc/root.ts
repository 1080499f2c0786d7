// The dashboard's router: built from the operation table, nothing declared here.
import { operations } from "@/server/operations";
import { buildTrpcRouter } from "@/server/operations/trpc";

export const appRouter = buildTrpcRouter(operations);

export type AppRouter = typeof appRouter;
