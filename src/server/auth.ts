// Dashboard accounts: better-auth with email + password, sessions in the
// database. Signing up also creates the user's first organization (OWNER).
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { nextCookies } from "better-auth/next-js";
import { db } from "@/server/db/client";
import { authSecret, env } from "@/server/env";
import { logger } from "@/server/logger";
import { CreateOrganizationInput } from "@/server/organizations/schemas";
import { createOrganization } from "@/server/organizations/service";

function createAuth() {
  return betterAuth({
    appName: "Coverdesk",
    secret: authSecret(),
    baseURL: env.APP_URL,
    trustedOrigins: [env.APP_URL],
    database: prismaAdapter(db, { provider: "postgresql" }),
    emailAndPassword: { enabled: true, minPasswordLength: 8, maxPasswordLength: 128, autoSignIn: true },
    session: { expiresIn: 60 * 60 * 24 * 14, updateAge: 60 * 60 * 24 },
    rateLimit: { enabled: env.AUTH_RATE_LIMIT },
    user: {
      additionalFields: {
        activeOrganizationId: { type: "string", required: false, input: false },
        platformAdmin: { type: "boolean", required: false, input: false, defaultValue: false },
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
