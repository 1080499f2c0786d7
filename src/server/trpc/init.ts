// tRPC for the dashboard: context, error formatter and the procedures of each
// auth kind. The router itself is built from the operation table
// (src/server/operations/trpc.ts); the session becomes the same Actor the
// REST API builds from a key (operations/auth.ts); services enforce every rule.
import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { z } from "@/lib/messages";
import { requirePlatformAdmin } from "@/server/admin/service";
import { AppError, toAppError } from "@/server/errors";
import { logger } from "@/server/logger";
import { wakeJobs } from "@/server/jobs/wake";
import { memberActor, sessionUser } from "@/server/operations/auth";
import { internalError } from "@/server/operations/failure";
import { requestIdOf } from "@/server/request-id";
import { fieldErrors, publicExtra } from "@/server/rest/problem";
import { assertSafeInput } from "@/server/text";

export async function createContext(opts: { headers: Headers }) {
  const user = await sessionUser(opts.headers);
  // Quoted in error messages and echoed as X-Request-Id (optional for in-process callers).
  const request: { requestId?: string } = { requestId: requestIdOf(opts.headers) };
  return { headers: opts.headers, user, ...request };
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
        message: internalError(requestId).message,
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
  if (type === "mutation" && result.ok) wakeJobs();
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

/** Only the builder (src/server/operations/trpc.ts) makes routers. */
export const router = t.router;
export type TrpcRootTypes = typeof t._config.$types;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure.use(appErrors);

export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user) throw new AppError("unauthenticated");
  return next({ ctx: { ...ctx, user: ctx.user } });
});

/** Acts in the user's active organization, checked against their membership on every call. */
export const orgProcedure = authedProcedure.use(async ({ ctx, next }) => {
  const actor = await memberActor(ctx.user);
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
