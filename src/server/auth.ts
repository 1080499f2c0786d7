// Dashboard accounts: better-auth with email + password, sessions in the
// database. Signing up also creates the user's first organization (OWNER).
// Hostile input is ordinary input here too (`guardAuthInput`): a NUL, a lone
// surrogate or invalid UTF-8 in the path, query or body is refused (422/400
// problem+json) before better-auth sees it, and what better-auth throws comes
// back to us (`onAPIError.throw`): a database data exception the input caused
// (PostgreSQL 22xxx) answers 422, anything else 500 with a request id, never a
// stack. better-auth's own log lines go through pino, one JSON line each.
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from "better-auth/api";
import { nextCookies } from "better-auth/next-js";
import { twoFactor } from "better-auth/plugins";
import { CLIENT_IP_HEADER } from "@/server/client-ip";
import { db } from "@/server/db/client";
import { authSecret, env } from "@/server/env";
import { hashPassword, verifyPassword } from "@/server/password";
import { AppError, isClientAbort, toAppError } from "@/server/errors";
import { isJsonContentType, readBytes } from "@/server/http/body";
import { logger } from "@/server/logger";
import { internalError } from "@/server/operations/failure";
import {
  forgetResetLinks,
  hashResetIdentifier,
  mailPasswordReset,
  RESET_PASSWORD_TOKEN_EXPIRES_IN,
} from "@/server/mail/password-reset";
import { CreateOrganizationInput } from "@/lib/schemas/organizations";
import { createOrganization } from "@/server/organizations/service";
import { requestIdOf } from "@/server/request-id";
import { problemBody, PROBLEM_CONTENT_TYPE } from "@/server/rest/problem";
import { beginSignInAttempt, ipRateLimitStorage } from "@/server/session/sign-in-limit";
import { requiredOfUser } from "@/server/organizations/two-factor-requirement";
import { confirmPassword } from "@/server/session/recent-auth";
import {
  BACKUP_CODE_COUNT,
  checkSignedInCode,
  claimTotpStep,
  forgetTotpSteps,
  TOTP_DIGITS,
  TOTP_PERIOD_S,
  TRUST_DEVICE_DAYS,
  TWO_FACTOR_LOCK_S,
  TWO_FACTOR_MAX_FAILURES,
} from "@/server/session/two-factor";
import { assertSafeInput } from "@/server/text";
import { recordFailedSignIn, recordSignIn } from "@/server/session/history";

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** Whose second factor a /two-factor/* request checks: the signed-in user, or the one half-way through signing in. */
async function twoFactorUserId(ctx: HookContext): Promise<string | null> {
  const session = await getSessionFromCtx(ctx).catch(() => null);
  if (session) return session.user.id;
  const cookie = ctx.context.createAuthCookie("two_factor");
  const identifier = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
  if (!identifier) return null;
  const challenge = await ctx.context.internalAdapter.findVerificationValue(identifier);
  return challenge?.value ?? null;
}

/**
 * Turning two-factor off asks, on the server, for the password AND a current
 * code (authenticator or backup), and is refused while an organization of the
 * user requires two-factor. Wrong passwords count as failed sign-ins, wrong
 * codes toward the two-factor lock — as at sign-in.
 */
async function confirmTurningOff(ctx: HookContext): Promise<void> {
  const session = await getSessionFromCtx(ctx).catch(() => null);
  if (!session) return; // the plugin answers 401
  const body = (ctx.body ?? {}) as { password?: unknown; code?: unknown };
  if (await requiredOfUser(session.user.id)) {
    throw new APIError("FORBIDDEN", {
      code: "TWO_FACTOR_REQUIRED_BY_ORGANIZATION",
      message: "Your organization requires two-factor sign-in: it stays on while you are a member.",
    });
  }
  if (typeof body.code !== "string" || body.code.trim() === "") {
    throw new APIError("BAD_REQUEST", { code: "CODE_REQUIRED", message: "Enter a code from your app or a backup code." });
  }
  try {
    await confirmPassword(session.user, typeof body.password === "string" ? body.password : "");
  } catch (err) {
    if (err instanceof AppError && err.code === "rate_limited") {
      throw new APIError("TOO_MANY_REQUESTS", { code: "TOO_MANY_FAILED_SIGN_INS", message: err.message });
    }
    throw new APIError("BAD_REQUEST", { code: "INVALID_PASSWORD", message: "Invalid password" });
  }
  const check = await checkSignedInCode(session.user.id, body.code, ctx.context.secretConfig);
  if (check.ok) return;
  if (check.reason === "locked") {
    throw new APIError(
      "TOO_MANY_REQUESTS",
      { code: "ACCOUNT_TEMPORARILY_LOCKED", message: "Too many wrong codes. Try again later." },
      { "Retry-After": String(check.retryAfterSeconds ?? TWO_FACTOR_LOCK_S) },
    );
  }
  if (check.reason === "replayed") {
    throw new APIError("UNAUTHORIZED", { code: "CODE_ALREADY_USED", message: "This code was already used. Enter the next code from your app." });
  }
  throw new APIError("UNAUTHORIZED", { code: "INVALID_CODE", message: "Invalid code" });
}

/** Sign-in attempts under way, to give back those that were not a wrong password. */
const pendingAttempts = new WeakMap<Request, () => Promise<void>>();

type AuthLogLevel = "debug" | "info" | "warn" | "error";
// better-auth's info lines name the email of a repeated sign-up: from warn up unless LOG_LEVEL asks for debugging.
const AUTH_LOG_LEVELS: Record<typeof env.LOG_LEVEL, AuthLogLevel> = {
  trace: "debug",
  debug: "debug",
  info: "warn",
  warn: "warn",
  error: "error",
  fatal: "error",
  silent: "error",
};

/** better-auth's logger option: its lines through pino (an Error as `err`, anything else as `details`). */
const authLogger = {
  disabled: env.LOG_LEVEL === "silent",
  disableColors: true,
  level: AUTH_LOG_LEVELS[env.LOG_LEVEL],
  log(level: AuthLogLevel, message: string, ...args: unknown[]) {
    const err = args.find((a) => a instanceof Error);
    const rest = args.filter((a) => a !== err);
    const details = rest.length === 0 ? undefined : rest.length === 1 ? rest[0] : rest;
    logger[level]({ component: "better-auth", err, details }, String(message));
  },
};

function createAuth() {
  return betterAuth({
    appName: "Coverdesk",
    logger: authLogger,
    // Errors better-auth does not answer itself (a database error, a bug) are thrown to `guardAuthInput`,
    // which answers problem+json, instead of an empty 500 and a multi-line dump on stderr.
    onAPIError: { throw: true },
    secret: authSecret(),
    baseURL: env.APP_URL,
    trustedOrigins: [env.APP_URL],
    database: prismaAdapter(db, { provider: "postgresql" }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      autoSignIn: true,
      // scrypt as better-auth does, with the cost of new hashes from PASSWORD_SCRYPT_N (src/server/password.ts).
      password: { hash: (password) => hashPassword(password), verify: verifyPassword },
      // Forgot password: better-auth answers every email alike and calls this only for an account's own;
      // a link works once, for an hour; using it signs the account out everywhere and voids its other links.
      sendResetPassword: async ({ user, token }) => mailPasswordReset(user, token),
      resetPasswordTokenExpiresIn: RESET_PASSWORD_TOKEN_EXPIRES_IN,
      revokeSessionsOnPasswordReset: true,
      onPasswordReset: async ({ user }) => forgetResetLinks(user.id),
    },
    // Reset tokens are kept as a hash: reading the table does not give one away.
    verification: { storeIdentifier: { default: "plain", overrides: { "reset-password:": { hash: hashResetIdentifier } } } },
    session: { expiresIn: 60 * 60 * 24 * 14, updateAge: 60 * 60 * 24 },
    // Per IP (and path), with better-auth's rules, in the store every instance shares; reading
    // one's own session (every dashboard load) is not throttled, so it costs no write.
    rateLimit: {
      enabled: env.AUTH_RATE_LIMIT,
      customStorage: ipRateLimitStorage(),
      customRules: { "/get-session": false },
    },
    // The client address resolved by the route handler (src/server/client-ip.ts); forwarded headers are not read here.
    advanced: { ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] } },
    // The per-account limit is on even with AUTH_RATE_LIMIT=false: it only counts wrong passwords.
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        // An authenticator code is accepted once: the plugin would take it again within its 90 s.
        const code = (ctx.body as { code?: unknown } | undefined)?.code;
        if (ctx.path === "/two-factor/verify-totp" && typeof code === "string") {
          const userId = await twoFactorUserId(ctx);
          if (userId && (await claimTotpStep(userId, code, ctx.context.secretConfig)) === "replayed") {
            throw new APIError("UNAUTHORIZED", {
              code: "CODE_ALREADY_USED",
              message: "This code was already used. Enter the next code from your app.",
            });
          }
          return;
        }
        if (ctx.path === "/two-factor/disable") return confirmTurningOff(ctx);
        const email = (ctx.body as { email?: unknown } | undefined)?.email;
        if (ctx.path !== "/sign-in/email" || !ctx.request || typeof email !== "string") return;
        const attempt = await beginSignInAttempt(email);
        if (!attempt.allowed) {
          throw new APIError(
            "TOO_MANY_REQUESTS",
            {
              code: "TOO_MANY_FAILED_SIGN_INS",
              message: `Too many failed sign-ins for this account. Try again in ${Math.ceil(attempt.retryAfterSeconds / 60)} min.`,
            },
            { "Retry-After": String(attempt.retryAfterSeconds) },
          );
        }
        pendingAttempts.set(ctx.request, attempt.release);
      }),
      after: createAuthMiddleware(async (ctx) => {
        // The account's history: a refused password or code (a success is a session: databaseHooks below).
        const refused = isAPIError(ctx.context.returned) && ctx.context.returned.statusCode === 401;
        if (refused && ctx.request) {
          const ip = ctx.request.headers.get(CLIENT_IP_HEADER);
          const agent = ctx.request.headers.get("user-agent");
          if (ctx.path === "/sign-in/email") {
            const email = (ctx.body as { email?: unknown } | undefined)?.email;
            if (typeof email === "string") await recordFailedSignIn({ email }, "wrong_password", ip, agent);
          } else if (
            (ctx.path === "/two-factor/verify-totp" || ctx.path === "/two-factor/verify-backup-code") &&
            // Half-way through signing in, not a signed-in user confirming a code (setup, turning it off).
            !(await getSessionFromCtx(ctx).catch(() => null))
          ) {
            await recordFailedSignIn({ userId: await twoFactorUserId(ctx) }, "wrong_code", ip, agent);
          }
        }
        if (ctx.path === "/two-factor/enable") {
          // A new secret: no step of it was used yet.
          const userId = isAPIError(ctx.context.returned) ? null : await twoFactorUserId(ctx);
          if (userId) await forgetTotpSteps(userId);
          return;
        }
        const release = ctx.request ? pendingAttempts.get(ctx.request) : undefined;
        if (!ctx.request || !release) return;
        pendingAttempts.delete(ctx.request);
        const returned = ctx.context.returned;
        if (!(isAPIError(returned) && returned.statusCode === 401)) await release();
      }),
    },
    user: {
      additionalFields: {
        activeOrganizationId: { type: "string", required: false, input: false },
        platformAdmin: { type: "boolean", required: false, input: false, defaultValue: false },
        // The dashboard's test view (organizations.setMode), never set by sign-up.
        testMode: { type: "boolean", required: false, input: false, defaultValue: false },
      },
    },
    databaseHooks: {
      // Every session made is a sign-in: into the user's history, and an email when the device is new.
      session: {
        create: {
          after: async (session) => {
            await recordSignIn(session.userId, session.ipAddress ?? null, session.userAgent ?? null);
          },
        },
      },
      user: {
        create: {
          after: async (user, ctx) => {
            // The sign-up form sends `organizationName`; other paths (invitations) may not.
            const body = (ctx?.body ?? {}) as { organizationName?: unknown };
            if (body.organizationName === undefined) return;
            const parsed = CreateOrganizationInput.safeParse({ name: body.organizationName, email: user.email });
            const name = parsed.success ? parsed.data.name : `${user.name}'s business`.slice(0, 120);
            try {
              await createOrganization(user.id, { name, email: user.email });
            } catch (err) {
              // The dashboard asks a user without an organization to create one.
              logger.error({ err, userId: user.id }, "could not create the first organization at sign-up");
            }
          },
        },
      },
    },
    plugins: [
      // Sign-in with an authenticator app's code (or a backup code) after the password; see
      // src/server/session/two-factor.ts for what is stored and how codes are limited.
      twoFactor({
        issuer: "Coverdesk",
        totpOptions: { digits: TOTP_DIGITS, period: TOTP_PERIOD_S },
        backupCodeOptions: { amount: BACKUP_CODE_COUNT, storeBackupCodes: "encrypted" },
        trustDeviceMaxAge: TRUST_DEVICE_DAYS * 24 * 60 * 60,
        accountLockout: { enabled: true, maxFailedAttempts: TWO_FACTOR_MAX_FAILURES, durationSeconds: TWO_FACTOR_LOCK_S },
      }),
      nextCookies(),
    ],
  });
}

type Auth = ReturnType<typeof createAuth>;
const g = globalThis as unknown as { __coverdeskAuth?: Auth };

/** The better-auth instance, made on first use: building the app must not need its secret. */
export function getAuth(): Auth {
  return (g.__coverdeskAuth ??= createAuth());
}

/**
 * The request as better-auth may see it: 422 `validation_failed` for a NUL or
 * a lone surrogate in a path segment, a query value or a body string (raw or
 * JSON-escaped, keys included), 400 for a body that is not UTF-8. The body is
 * read here once and handed on unchanged.
 */
async function checkedAuthRequest(request: Request): Promise<Request> {
  const url = new URL(request.url);
  const segments = url.pathname.split("/").map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      throw new AppError("invalid_path", "The path holds a malformed percent-encoding");
    }
  });
  assertSafeInput(segments.join("/"), "path");
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = v;
  assertSafeInput(query, "query");
  if (!request.body || request.method === "GET" || request.method === "HEAD") return request;
  const bytes = await readBytes(request, env.API_MAX_BODY_BYTES);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new AppError("malformed_json", "The body is not valid UTF-8");
  }
  assertSafeInput(text, "body");
  const type = request.headers.get("content-type") ?? "";
  if (isJsonContentType(request)) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined; // not JSON: better-auth answers that itself
    }
    assertSafeInput(value);
  } else if (/^application\/x-www-form-urlencoded\b/i.test(type)) {
    assertSafeInput(Object.fromEntries(new URLSearchParams(text)));
  }
  return new Request(request.url, { method: request.method, headers: request.headers, body: bytes, signal: request.signal });
}

function authProblem(err: AppError, requestId: string): Response {
  return new Response(problemBody(err, requestId), {
    status: err.status,
    headers: { "Content-Type": PROBLEM_CONTENT_TYPE, "X-Request-Id": requestId, "Cache-Control": "no-store" },
  });
}

/**
 * Runs an auth route's `handle` (better-auth's handler) on input it can take,
 * and answers what it throws: 422 for a database data exception the input
 * caused (PostgreSQL 22xxx), 499 when the client left mid-body (logged at
 * info), else 500 — each as problem+json with a request id, logged as one line.
 */
export async function guardAuthInput(request: Request, handle: (request: Request) => Promise<Response>): Promise<Response> {
  const requestId = requestIdOf(request.headers);
  const where = { requestId, method: request.method, route: new URL(request.url).pathname };
  try {
    return await handle(await checkedAuthRequest(request));
  } catch (err) {
    if (isClientAbort(err)) {
      logger.info({ ...where, status: 499 }, "the client closed the request before its body arrived");
      return authProblem(new AppError("client_closed_request"), requestId);
    }
    const app = toAppError(err);
    if (app) {
      if (app !== err) logger.warn({ err, ...where }, "the database refused a value of the request");
      return authProblem(app, requestId);
    }
    logger.error({ err, ...where }, "unhandled error in the auth routes");
    return authProblem(internalError(requestId), requestId);
  }
}
