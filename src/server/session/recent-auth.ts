// Recent authentication: the dashboard's money moves and keys-to-the-kingdom
// changes (withdraw, bank accounts, refunds, claim payouts, API keys, webhook
// endpoints, roles, the two-factor requirement) need the password or a
// two-factor code confirmed in the last RECENT_AUTH_S in THIS session — a
// session cookie left on a shared computer for a week cannot move money.
//
// A session's authentication is its sign-in (session.createdAt: better-auth
// makes a new session at each sign-in, after the second factor when there is
// one) or its last confirmation (session.reauthenticatedAt). Operations
// declare `recentAuth: true`; the HTTP pipeline and the tRPC adapter refuse a
// session caller past the window with 403 `reauthentication_required`, and the
// dashboard asks and retries. API keys are machine credentials: never asked.
import { db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { verifyPassword } from "@/server/password";
import { beginSignInAttempt } from "@/server/session/sign-in-limit";
import { checkSignedInCode, twoFactorKey } from "@/server/session/two-factor";

export const RECENT_AUTH_S = 10 * 60;

export interface SessionRef {
  id: string;
  email: string;
  sessionId?: string;
}

/** When the session last proved who is behind it (sign-in or confirmation), or null without a session. */
export async function authenticatedAt(sessionId: string | undefined): Promise<Date | null> {
  if (!sessionId) return null;
  const row = await db.session.findUnique({ where: { id: sessionId }, select: { createdAt: true, reauthenticatedAt: true } });
  if (!row) return null;
  return row.reauthenticatedAt && row.reauthenticatedAt > row.createdAt ? row.reauthenticatedAt : row.createdAt;
}

/** Throws 403 `reauthentication_required` unless the session authenticated within RECENT_AUTH_S. */
export async function assertRecentAuth(user: SessionRef, now = Date.now()): Promise<void> {
  const at = await authenticatedAt(user.sessionId);
  if (at && now - at.getTime() <= RECENT_AUTH_S * 1000) return;
  throw new AppError("reauthentication_required", "Confirm your password or a two-factor code to continue");
}

export interface ReauthenticateInput {
  password?: string;
  code?: string;
}

const wrong = (path: "password" | "code", message: string) =>
  new AppError("validation_failed", `${path}: ${message}`, { errors: [{ path, message }] });

/**
 * The account's password, checked under the sign-in limit of the account: a
 * wrong one counts as a failed sign-in (10 in 15 min, then 429 for all).
 */
export async function confirmPassword(user: { id: string; email: string }, password: string): Promise<void> {
  const attempt = await beginSignInAttempt(user.email);
  if (!attempt.allowed) {
    throw new AppError(
      "rate_limited",
      `Too many wrong passwords for this account. Try again in ${Math.ceil(attempt.retryAfterSeconds / 60)} min.`,
      { retryAfterSeconds: attempt.retryAfterSeconds },
    );
  }
  const account = await db.account.findFirst({
    where: { userId: user.id, providerId: "credential" },
    select: { password: true },
  });
  const ok = !!account?.password && (await verifyPassword({ hash: account.password, password }));
  if (!ok) throw wrong("password", "That password is not right");
  await attempt.release();
}

/**
 * Confirms the user with their password or a two-factor code (authenticator
 * or backup) and marks the session as freshly authenticated. Wrong passwords
 * count toward the sign-in limit of the account (10 in 15 min), wrong codes
 * toward its two-factor lock (5): guessing here is no cheaper than at sign-in.
 */
export async function reauthenticate(user: SessionRef, input: ReauthenticateInput): Promise<{ validUntil: Date }> {
  if (!user.sessionId) throw new AppError("unauthenticated");
  if (input.code !== undefined) {
    const check = await checkSignedInCode(user.id, input.code, await twoFactorKey());
    if (!check.ok) {
      if (check.reason === "locked") {
        throw new AppError("rate_limited", `Too many wrong codes. Try again in ${Math.ceil((check.retryAfterSeconds ?? 60) / 60)} min.`, {
          retryAfterSeconds: check.retryAfterSeconds,
        });
      }
      if (check.reason === "not_enabled") throw wrong("code", "Two-factor sign-in is not on for your account: use your password");
      if (check.reason === "replayed") throw wrong("code", "This code was already used. Enter the next code from your app");
      throw wrong("code", "That code is not right");
    }
  } else {
    await confirmPassword(user, input.password ?? "");
  }
  const now = new Date();
  await db.session.update({ where: { id: user.sessionId }, data: { reauthenticatedAt: now } });
  return { validUntil: new Date(now.getTime() + RECENT_AUTH_S * 1000) };
}
