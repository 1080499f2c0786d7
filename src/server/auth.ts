// Dashboard accounts: better-auth with email + password, sessions in the
// database. Signing up also creates the user's first organization (OWNER).
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { APIError, createAuthMiddleware, isAPIError } from "better-auth/api";
import { nextCookies } from "better-auth/next-js";
import { CLIENT_IP_HEADER } from "@/server/client-ip";
import { db } from "@/server/db/client";
import { authSecret, env } from "@/server/env";
import { logger } from "@/server/logger";
import {
  forgetResetLinks,
  hashResetIdentifier,
  mailPasswordReset,
  RESET_PASSWORD_TOKEN_EXPIRES_IN,
} from "@/server/mail/password-reset";
import { CreateOrganizationInput } from "@/server/organizations/schemas";
import { createOrganization } from "@/server/organizations/service";
import { beginSignInAttempt, ipRateLimitStorage } from "@/server/session/sign-in-limit";

/** Sign-in attempts under way, to give back those that were not a wrong password. */
const pendingAttempts = new WeakMap<Request, () => Promise<void>>();

function createAuth() {
  return betterAuth({
    appName: "Coverdesk",
    secret: authSecret(),
    baseURL: env.APP_URL,
    trustedOrigins: [env.APP_URL],
    database: prismaAdapter(db, { provider: "postgresql" }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      autoSignIn: true,
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
    plugins: [nextCookies()],
  });
}

type Auth = ReturnType<typeof createAuth>;
const g = globalThis as unknown as { __coverdeskAuth?: Auth };

/** The better-auth instance, made on first use: building the app must not need its secret. */
export function getAuth(): Auth {
  return (g.__coverdeskAuth ??= createAuth());
}
