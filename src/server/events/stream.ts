// GET /api/v1/events/stream — the organization's events (of the key's mode) as
// Server-Sent Events, for `npm run listen` and any client that would rather
// hold a connection than expose a public URL. Each message is one event:
// `id` its id, `event` its type, `data` exactly the JSON body its webhook
// delivery carries. A client that reconnects with `Last-Event-ID` gets every
// event after that one, in order, none twice; without it the stream starts
// with the events committed from now on.
//
// Woken when events commit (this process's requests, and every instance's
// while a job runner here LISTENs on PostgreSQL); a heartbeat comment every
// EVENTS_STREAM_HEARTBEAT_MS keeps proxies from closing an idle stream, and
// re-checks the key there (a revoked key's stream ends within the key cache
// time plus a heartbeat). At most EVENTS_STREAM_PER_KEY streams per key across
// every instance (429 beyond): each open stream holds a lease row, renewed at
// each heartbeat and deleted at its end (a crashed instance's expire after
// three heartbeats). A shutdown ends the streams (clients reconnect).
import { newId } from "@/server/ids";
import { EVENT_TYPES } from "@/lib/enums";
import type { AuthenticatedKey } from "@/server/api-keys/service";
import { authenticateApiKey, keyActor } from "@/server/api-keys/service";
import { db } from "@/server/db/client";
import { env } from "@/server/env";
import { AppError } from "@/server/errors";
import { onEvents } from "@/server/jobs/wake";
import { isDraining } from "@/server/lifecycle";
import { logger } from "@/server/logger";
import { bearer } from "@/server/operations/auth";

const PUBLIC_TYPES = [...EVENT_TYPES] as string[];
/** Events may commit out of createdAt order (a longer transaction): each read looks this far back, skipping what was sent. */
const LOOKBACK_MS = 10_000;
const BATCH = 200;
const SEEN_MAX = 5_000;

/** A stream's lease outlives three heartbeats (at least 3 s): a crashed instance's places come back then. */
const leaseMs = () => Math.max(3 * env.EVENTS_STREAM_HEARTBEAT_MS, 3_000);

/**
 * Takes one of the key's places, or refuses (429) when every place is held by a
 * live stream on any instance. The key's places are counted and taken under one
 * transaction lock, so two instances cannot both take the last one.
 */
async function takePlace(apiKeyId: string): Promise<string> {
  const id = newId();
  const taken = await db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`event-stream\n${apiKeyId}`}, 0))`;
    const now = new Date();
    await tx.eventStreamLease.deleteMany({ where: { apiKeyId, expiresAt: { lte: now } } });
    const held = await tx.eventStreamLease.count({ where: { apiKeyId } });
    if (held >= env.EVENTS_STREAM_PER_KEY) return false;
    await tx.eventStreamLease.create({ data: { id, apiKeyId, expiresAt: new Date(now.getTime() + leaseMs()) } });
    return true;
  });
  if (!taken) {
    throw new AppError("rate_limited", `At most ${env.EVENTS_STREAM_PER_KEY} event streams at once per key`, {
      retryAfterSeconds: 5,
    });
  }
  return id;
}

interface Row {
  id: string;
  type: string;
  createdAt: Date;
  data: unknown;
}

const body = (row: Row, livemode: boolean) =>
  JSON.stringify({ id: row.id, type: row.type, createdAt: row.createdAt.toISOString(), livemode, data: row.data ?? {} });

export async function eventStream(request: Request, key: AuthenticatedKey): Promise<Response> {
  const actor = keyActor(key);
  const organizationId = actor.organizationId;
  const livemode = actor.livemode !== false;
  const presented = bearer(request);
  const lastId = request.headers.get("last-event-id")?.trim() || null;

  // Where to start: after the event the client saw last (its own organization's, else 400), or now.
  let cursor: { at: Date; id: string };
  const seen: string[] = [];
  const seenSet = new Set<string>();
  const markSeen = (id: string) => {
    seenSet.add(id);
    seen.push(id);
    if (seen.length > SEEN_MAX) seenSet.delete(seen.shift()!);
  };
  if (lastId) {
    const last = await db.event.findFirst({ where: { id: lastId, organizationId }, select: { id: true, createdAt: true } });
    if (!last) {
      throw new AppError("validation_failed", "Last-Event-ID: not an event of this organization (start without it)", {
        errors: [{ path: "Last-Event-ID", message: "Not an event of this organization" }],
      });
    }
    cursor = { at: last.createdAt, id: last.id };
    // What the client had: the events up to and including that one within the look-back.
    const before = await db.event.findMany({
      where: {
        organizationId,
        type: { in: PUBLIC_TYPES },
        createdAt: { gte: new Date(last.createdAt.getTime() - LOOKBACK_MS), lte: last.createdAt },
      },
      select: { id: true, createdAt: true },
    });
    for (const e of before) if (e.createdAt < last.createdAt || e.id <= last.id) markSeen(e.id);
  } else {
    cursor = { at: new Date(), id: "" };
  }
  // Without Last-Event-ID nothing before the connection is sent.
  const floor = lastId ? null : cursor.at;

  const place = await takePlace(key.id);

  const encoder = new TextEncoder();
  let closed = false;
  let wakeUp: (() => void) | null = null;
  let pending = true; // read once at the start
  const unsubscribe = onEvents(() => {
    pending = true;
    wakeUp?.();
  });
  const release = () => {
    if (closed) return;
    closed = true;
    unsubscribe();
    wakeUp?.();
    db.eventStreamLease.delete({ where: { id: place } }).catch(() => undefined); // gone already: it expired
  };

  /** The events after the cursor not sent yet, oldest first (a batch at most). */
  const next = async (): Promise<Row[]> => {
    const rows = await db.event.findMany({
      where: { organizationId, type: { in: PUBLIC_TYPES }, createdAt: { gte: new Date(cursor.at.getTime() - LOOKBACK_MS) } },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: BATCH + seenSet.size,
      select: { id: true, type: true, createdAt: true, data: true },
    });
    return rows.filter((r) => !seenSet.has(r.id) && (floor === null || r.createdAt >= floor)).slice(0, BATCH);
  };

  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => controller.enqueue(encoder.encode(text));
      // Reconnect after 1 s if the connection drops.
      send(`retry: 1000\n: connected to the events of ${livemode ? "live" : "test"} mode\n\n`);
      let lastBeat = Date.now();
      try {
        while (!closed && !isDraining()) {
          if (pending) {
            pending = false;
            for (let rows = await next(); rows.length > 0 && !closed; rows = await next()) {
              for (const row of rows) {
                send(`id: ${row.id}\nevent: ${row.type}\ndata: ${body(row, livemode)}\n\n`);
                markSeen(row.id);
                if (row.createdAt > cursor.at || (row.createdAt.getTime() === cursor.at.getTime() && row.id > cursor.id)) {
                  cursor = { at: row.createdAt, id: row.id };
                }
              }
            }
          }
          if (Date.now() - lastBeat >= env.EVENTS_STREAM_HEARTBEAT_MS) {
            lastBeat = Date.now();
            // The key still works (revoked: the stream ends), and the connection is kept warm.
            await authenticateApiKey(presented);
            await db.eventStreamLease.updateMany({ where: { id: place }, data: { expiresAt: new Date(Date.now() + leaseMs()) } });
            send(": heartbeat\n\n");
            // A runner elsewhere may not reach this process: read again at each heartbeat anyway.
            pending = true;
          }
          if (!pending && !closed) {
            await new Promise<void>((resolve) => {
              const timer = setTimeout(
                resolve,
                Math.min(1_000, Math.max(0, env.EVENTS_STREAM_HEARTBEAT_MS - (Date.now() - lastBeat))),
              );
              wakeUp = () => {
                clearTimeout(timer);
                resolve();
              };
            });
            wakeUp = null;
          }
        }
      } catch (err) {
        if (!(err instanceof AppError)) logger.error({ err, organizationId }, "event stream failed");
        else send(`event: error\ndata: ${JSON.stringify({ code: err.code, detail: err.message })}\n\n`);
      }
      release();
      try {
        controller.close();
      } catch {
        // the client left first
      }
    },
    cancel() {
      release();
    },
  });

  return new Response(stream, {
    status: 200,
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Accel-Buffering": "no",
    },
  });
}
