// Sign-in limits, counted in the store every instance shares (the REST rate
// limit's: the database, or Redis with REDIS_URL).
//
// Per account: at most ACCOUNT_MAX_FAILURES failed passwords per email in a
// fixed ACCOUNT_WINDOW_S window, whatever the IP; past it every sign-in to
// that email is refused with 429, the right password too, until the window
// ends. An attempt is counted *before* the password is checked and given back
// when it turns out not to be a wrong password, so a concurrent burst cannot
// slip more guesses past the count. The key is a hash of the normalized email,
// so unknown emails are limited alike and no address is stored.
//
// Per IP: better-auth's own throttling (AUTH_RATE_LIMIT) keeps its counters in
// the same store through `ipRateLimitStorage`; its keys hold the address
// `clientIpOf` resolved (src/server/client-ip.ts: the TCP peer, or what
// TRUSTED_PROXIES forward), handed over by the auth route — never a header the
// client sent.
import crypto from "node:crypto";
import { activeCounter, currentWindow, type WindowCounter } from "@/server/rest/rate-limit";

export const ACCOUNT_MAX_FAILURES = 10;
export const ACCOUNT_WINDOW_S = 15 * 60;

export type SignInAttempt = { allowed: true; release: () => Promise<void> } | { allowed: false; retryAfterSeconds: number };

const accountKey = (email: string) =>
  `auth:sign-in:${crypto.createHash("sha256").update(email.trim().toLowerCase()).digest("hex")}`;


/**
 * Counts a sign-in attempt for `email`. When allowed, call `release()` once the
 * attempt turned out not to be a wrong password (it succeeded, or failed for
 * another reason): only wrong passwords stay counted.
 */
export async function beginSignInAttempt(email: string, counter: WindowCounter = activeCounter()): Promise<SignInAttempt> {
  const key = accountKey(email);
  const window = currentWindow(ACCOUNT_WINDOW_S);
  const count = await counter(key, window.start, ACCOUNT_WINDOW_S, 1);
  if (count > ACCOUNT_MAX_FAILURES) return { allowed: false, retryAfterSeconds: window.retryAfterSeconds };
  let released = false;
  return {
    allowed: true,
    release: async () => {
      if (released) return;
      released = true;
      await counter(key, window.start, ACCOUNT_WINDOW_S, -1);
    },
  };
}

/** better-auth's `rateLimit.customStorage`: its per-IP (and per-path) rules, in the shared store. */
export function ipRateLimitStorage(counter: () => WindowCounter = activeCounter) {
  return {
    async consume(key: string, rule: { window: number; max: number }) {
      const window = currentWindow(rule.window);
      const count = await counter()(`auth:ip:${key}`, window.start, rule.window, 1);
      return count <= rule.max ? { allowed: true, retryAfter: null } : { allowed: false, retryAfter: window.retryAfterSeconds };
    },
  };
}
