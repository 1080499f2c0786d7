// tRPC for the dashboard: the session becomes the same Actor the REST API
// builds from a key; services enforce every rule.
import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { ZodError } from "zod";
import type { Actor } from "@/server/actor";
import { getAuth } from "@/server/auth";
import { AppError } from "@/server/errors";
import { logger } from "@/server/logger";
import { resolveActiveMembership } from "@/server/organizations/service";
import { fieldErrors } from "@/server/rest/problem";

export async function createContext(opts: { headers: Headers }) {
  const session = await getAuth().api.getSession({ headers: opts.headers });
  return { headers: opts.headers, user: session?.user ?? null };
}
export type Context = Awaited<ReturnType<typeof createContext>>;

const t = initTRPC.context<Context>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    const app = cause instanceof AppError ? cause : null;
    const zod = cause instanceof ZodError ? cause : null;
    return {
      ...shape,
      data: {
        ...shape.data,
        stack: undefined,
        code: app?.code ?? (zod ? "validation_failed" : shape.data.code),
        errors: app?.extra.errors ?? (zod ? fieldErrors(zod) : undefined),
      },
    };
  },
});

/** Turns a service's AppError into the matching tRPC error, keeping the code. */
const appErrors = t.middleware(async ({ next, path }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause;
    if (cause instanceof AppError) {
      throw new TRPCError({ code: cause.trpcCode, message: cause.message, cause });
    }
    if (result.error.code === "INTERNAL_SERVER_ERROR") logger.error({ err: result.error, path }, "trpc error");
  }
  return result;
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure.use(appErrors);

export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user) throw new AppError("unauthenticated");
  return next({ ctx: { ...ctx, user: ctx.user } });
});

/** Acts in the user's active organization, checked against their membership on every call. */
export const orgProcedure = authedProcedure.use(async ({ ctx, next }) => {
  const member = await resolveActiveMembership(ctx.user.id, (ctx.user.activeOrganizationId as string | null) ?? null);
  if (!member) throw new AppError("forbidden", "You do not belong to any organization yet");
  const actor: Actor = { organizationId: member.organizationId, userId: ctx.user.id, role: member.role };
  return next({ ctx: { ...ctx, actor } });
});
