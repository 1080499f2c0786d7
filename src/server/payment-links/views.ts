// A payment link's page views, counted cheaply: added up in memory and written
// every METERING_FLUSH_MS in one statement (as API metering is), not one write
// per view. A crash loses at most that much counting — views are a figure for
// the business, not money.
import { db } from "@/server/db/client";
import { env } from "@/server/env";
import { logger } from "@/server/logger";

const g = globalThis as unknown as { __coverdeskLinkViews?: { pending: Map<string, number>; timer: NodeJS.Timeout | null } };
const state = (g.__coverdeskLinkViews ??= { pending: new Map(), timer: null });

/** One view of the link's page. */
export function countView(linkId: string): void {
  state.pending.set(linkId, (state.pending.get(linkId) ?? 0) + 1);
  if (!state.timer) {
    state.timer = setTimeout(() => void flushViews(), env.METERING_FLUSH_MS);
    state.timer.unref();
  }
}

/** Writes the views counted so far (tests call it to read them at once). */
export async function flushViews(): Promise<void> {
  if (state.timer) clearTimeout(state.timer);
  state.timer = null;
  if (state.pending.size === 0) return;
  const batch = [...state.pending];
  state.pending.clear();
  try {
    await db.$executeRaw`
      UPDATE payment_link AS l SET views = l.views + v.n
      FROM (SELECT unnest(${batch.map(([id]) => id)}::text[]) AS id, unnest(${batch.map(([, n]) => n)}::int[]) AS n) AS v
      WHERE l.id = v.id`;
  } catch (err) {
    // Kept for the next flush.
    for (const [id, n] of batch) state.pending.set(id, (state.pending.get(id) ?? 0) + n);
    logger.warn({ err }, "payment link views not written; kept for the next flush");
    if (!state.timer) {
      state.timer = setTimeout(() => void flushViews(), env.METERING_FLUSH_MS);
      state.timer.unref();
    }
  }
}
