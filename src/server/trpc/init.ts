// tRPC for the dashboard: the session becomes the same Actor the REST API
// builds from a key; services enforce every rule.
import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { z } from "@/lib/messages";
import type { Actor } from "@/server/actor";
import { requirePlatformAdmin } from "@/server/admin/service";
import { getAuth } from "@/server/auth";
import { AppError, toAppError } from "@/server/errors";
import { logger } from "@/server/logger";
import { wakeWorker } from "@/server/webhooks/worker";
import { resolveActiveMembership, sessionActor } from "@/server/organizations/service";
import { requestIdOf } from "@/server/request-id";
import { fieldErrors, publicExtra } from "@/server/rest/problem";
import { assertSafeInput } from "@/server/text";

export async function createContext(opts: { headers: Headers }) {
  const session = await getAuth().api.getSession({ headers: opts.headers });
  // Quoted in error messages and echoed as X-Request-Id (optional for in-process callers).
  const request: { requestId?: string } = { requestId: requestIdOf(opts.headers) };
  return { headers: opts.headers, user: session?.user ?? null, ...request };
}
export type Context = Awaited<ReturnType<typeof createContext>>;

const t = initTRPC.context<Context>().create({
  transformer: superjson,
  errorFormatter({ shape, error, ctx, path }) {
    const cause = error.cause;
    const app = cause instanceof AppError ? cause : null;
    const zod = cause instanceof z.ZodError ? cause : null;
    const { stack: _stack, ...data } = shape.data;
    if (!app && shape.data.httpStatus >= 500) {
      // A bug, not a refusal: its text (Prisma, SQL, stack) stays in the log.
      const requestId = ctx?.requestId ?? requestIdOf(new Headers());
      logger.error({ err: error, requestId, path }, "trpc error");
      return {
        ...shape,
        message: `Something went wrong on our side. Quote ${requestId} when you contact support.`,
        data: { ...data, code: "internal_error", requestId },
      };
    }
    return {
      ...shape,
      data: {
        ...data,
        code: app?.code ?? (zod ? "validation_failed" : shape.data.code),
        errors: app?.extra.errors ?? (zod ? fieldErrors(zod) : undefined),
        ...(app ? publicExtra(app) : {}),
      },
    };
  },
});

const asTrpcError = (app: AppError) => new TRPCError({ code: app.trpcCode, message: app.message, cause: app });

/**
 * Refuses unsafe text (NUL, lone surrogates) anywhere in the input before any
 * schema sees it, and turns a service's AppError, or a database data exception
 * the input caused, into the matching tRPC error, keeping the code.
 */
const appErrors = t.middleware(async ({ next, path, ctx, getRawInput, type }) => {
  try {
    assertSafeInput(await getRawInput());
  } catch (err) {
    if (err instanceof AppError) throw asTrpcError(err);
    throw err;
  }
  const result = await next();
  // A change committed: its events go out now, not at the worker's next poll.
  if (type === "mutation" && result.ok) wakeWorker();
  if (!result.ok) {
    const cause = result.error.cause;
    const app = toAppError(cause);
    if (app) {
      if (app !== cause)
        logger.warn(
          { err: cause, requestId: ctx.requestId, path },
          app.code === "service_unavailable"
            ? "database busy: request shed with 503"
            : "the database refused a value of the request",
        );
      throw asTrpcError(app);
    }
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
  const actor: Actor = await sessionActor(ctx.user.id, member, ctx.user.testMode === true);
  return next({ ctx: { ...ctx, actor } });
});

/**
 * Platform administration: the flag is read from the database on every call,
 * never from the session; anyone else gets 404, as if the surface did not exist.
 */
export const platformAdminProcedure = authedProcedure.use(async ({ ctx, next }) => {
  const admin = await requirePlatformAdmin(ctx.user.id);
  return next({ ctx: { ...ctx, admin } });
});
