// The ways in, each written once: an API key (Bearer, then the organization's
// rate limit), a signed-in user and the member's Actor (the dashboard's
// session), and the same-origin rule for changes made with a cookie. The
// HTTP pipeline and tRPC's procedures both call these.
import type { Actor } from "@/server/actor";
import { authenticateApiKey, type AuthenticatedKey } from "@/server/api-keys/service";
import { getAuth } from "@/server/auth";
import { env } from "@/server/env";
import { AppError } from "@/server/errors";
import { resolveActiveMembership, sessionActor } from "@/server/organizations/service";
import { consumeRateLimit, rateLimitHeaders } from "@/server/rest/rate-limit";
import { assertRecentAuth } from "@/server/session/recent-auth";
import type { AnyOperation, Principal } from "./operation";

type AuthSession = NonNullable<Awaited<ReturnType<ReturnType<typeof getAuth>["api"]["getSession"]>>>;
/** The signed-in user, and the id of the session the request came with (the devices list marks it as this one). */
export type SessionUser = AuthSession["user"] & { sessionId?: string };

/** The key presented as `Authorization: Bearer <key>` (401 when absent or malformed). */
export function bearer(request: Request): string {
  const header = request.headers.get("authorization");
  if (!header) throw new AppError("missing_api_key", "Send your API key as `Authorization: Bearer <key>`");
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m?.[1]) throw new AppError("invalid_api_key", "The Authorization header must be `Bearer <key>`");
  return m[1];
}

/** The request's API key (401), then one rate limit per organization over its keys of both modes (429). */
export async function authenticateKey(request: Request, headers: Headers): Promise<AuthenticatedKey> {
  const key = await authenticateApiKey(bearer(request));
  const limit = await consumeRateLimit(key.accountId, key.rateLimit);
  rateLimitHeaders(headers, limit);
  if (!limit.allowed) {
    headers.set("Retry-After", String(limit.resetSeconds));
    throw new AppError("rate_limited", `Over ${limit.limit} requests per minute; retry in ${limit.resetSeconds} s`);
  }
  return key;
}

/** The signed-in user of the request's session cookie, or null. */
export async function sessionUser(headers: Headers): Promise<SessionUser | null> {
  const session = await getAuth().api.getSession({ headers });
  return session ? { ...session.user, sessionId: session.session.id } : null;
}

/**
 * The dashboard's Actor: the user in their active organization (checked
 * against their membership on every call) and dashboard mode; 403 when they
 * belong to no organization.
 */
export async function memberActor(user: SessionUser): Promise<Actor> {
  const member = await resolveActiveMembership(user.id, (user.activeOrganizationId as string | null) ?? null);
  if (!member) throw new AppError("forbidden", "You do not belong to any organization yet");
  // Checked on every call, so a session made before the owner turned the requirement on is held too.
  if (member.organization.requireTwoFactor && user.twoFactorEnabled !== true) {
    throw new AppError(
      "two_factor_required",
      "Your organization requires two-factor sign-in: set it up at /two-factor-setup to continue",
    );
  }
  return sessionActor(user.id, member, user.testMode === true);
}

/**
 * An operation declared `recentAuth`, called by a signed-in user: their session
 * confirmed the password or a two-factor code in the last 10 minutes (403
 * `reauthentication_required`). Keys and other callers are not asked.
 */
export async function assertRecentAuthFor(op: AnyOperation, principal: Principal): Promise<void> {
  if (!op.recentAuth) return;
  if (principal.auth === "session" || principal.auth === "user" || principal.auth === "platformAdmin") {
    await assertRecentAuth(principal.user);
  }
}

/**
 * A change made with a cookie is accepted from the app's own pages only: a
 * cross-site form cannot post the cookie into it (the cookies are SameSite=Lax;
 * this closes the rest).
 */
export function assertSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  const allowed = new Set([new URL(env.APP_URL).origin, new URL(request.url).origin]);
  if (!origin || !allowed.has(origin)) throw new AppError("forbidden", "Changes are accepted from the app's own pages only");
}
