// How often payments may be started from payment links, counted in the store
// every instance shares (the REST rate limit's: the database, or Redis): per
// client address (a person buying for a few relatives gets through; a bot
// cannot fill the payments list), and per link (a burst from many addresses).
import { activeCounter, currentWindow, type WindowCounter } from "@/server/rest/rate-limit";

export const PER_IP = { max: 10, windowSeconds: 10 * 60 };
export const PER_LINK = { max: 300, windowSeconds: 10 * 60 };


/** Counts one start; refused (with when to retry) once the address or the link is over its limit. */
export async function allowStart(
  ip: string | null,
  linkId: string,
  counter: WindowCounter = activeCounter(),
): Promise<{ ok: true } | { ok: false; retryAfterSeconds: number }> {
  for (const [key, rule] of [
    [`buy:ip:${ip ?? "unknown"}`, PER_IP],
    [`buy:link:${linkId}`, PER_LINK],
  ] as const) {
    const w = currentWindow(rule.windowSeconds);
    if ((await counter(key, w.start, rule.windowSeconds, 1)) > rule.max)
      return { ok: false, retryAfterSeconds: w.retryAfterSeconds };
  }
  return { ok: true };
}
