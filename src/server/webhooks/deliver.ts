// One HTTP attempt of one event to one webhook, and its log row.
import type { ReadableStream } from "node:stream/web";
import { fetch } from "undici";
import type { Prisma, Webhook as WebhookRow } from "@/generated/prisma/client";
import type { Tx } from "@/server/db/client";
import { env } from "@/server/env";
import { recordEvent } from "@/server/events/record";
import { newId } from "@/server/ids";
import { unseal } from "@/server/seal";
import { signatureHeaders } from "./signing";
import { pinnedAgent, resolveTarget, type ResolveHost } from "./url-safety";

export const SECRET_PURPOSE = "webhook-secret";
const EXCERPT_BYTES = 1024;

export interface EventPayload {
  id: string;
  type: string;
  createdAt: Date;
  data: unknown;
}

export interface Outcome {
  ok: boolean;
  responseStatus: number | null;
  durationMs: number | null;
  error: string | null;
  responseExcerpt: string | null;
  requestHeaders: Record<string, string>;
  requestBody: string;
  /** The receiver answered 410 Gone: stop sending to it. */
  gone: boolean;
  /** Seconds the receiver asked us to wait (429 Retry-After). */
  retryAfterS: number | null;
}

/** Retry-After as seconds, or an HTTP date. */
function retryAfterSeconds(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds : null;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** The first EXCERPT_BYTES of a body, read from the stream; the rest is never read. */
async function readExcerpt(body: ReadableStream<Uint8Array> | null): Promise<string> {
  if (!body) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < EXCERPT_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // a body cut short (timeout, reset) keeps what arrived
  } finally {
    reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString("utf8");
}

/**
 * One attempt. `livemode` is the webhook's organization's (false for a test
 * twin's): receivers tell test events from live ones by it, as with Stripe.
 */
export async function sendOnce(
  webhook: WebhookRow,
  event: EventPayload,
  { resolve, livemode }: { resolve?: ResolveHost; livemode: boolean },
): Promise<Outcome> {
  const body = JSON.stringify({
    id: event.id,
    type: event.type,
    createdAt: event.createdAt.toISOString(),
    livemode,
    data: event.data,
  });
  const previous =
    webhook.previousSecretSealed && webhook.previousSecretExpiresAt && webhook.previousSecretExpiresAt > new Date()
      ? unseal(SECRET_PURPOSE, webhook.previousSecretSealed)
      : null;
  const headers = signatureHeaders(unseal(SECRET_PURPOSE, webhook.secretSealed), event.id, event.type, body, undefined, previous);
  const base = { requestHeaders: headers, requestBody: body, gone: false, retryAfterS: null };
  const target = await resolveTarget(webhook.url, resolve);
  if (!target.ok)
    return {
      ...base,
      ok: false,
      responseStatus: null,
      durationMs: null,
      error: `Not sent: ${target.reason}`,
      responseExcerpt: null,
    };

  // Connects only to the addresses just checked: no second DNS resolution.
  const dispatcher = pinnedAgent(target);
  const started = performance.now();
  try {
    const res = await fetch(webhook.url, {
      method: "POST",
      headers,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(env.WEBHOOK_TIMEOUT_MS),
      dispatcher,
    });
    const excerpt = await readExcerpt(res.body);
    const durationMs = Math.round(performance.now() - started);
    const ok = res.status >= 200 && res.status < 300;
    const retryAfter = retryAfterSeconds(res.headers.get("retry-after"));
    return {
      ...base,
      ok,
      responseStatus: res.status,
      durationMs,
      error: ok ? null : res.status >= 300 && res.status < 400 ? `Redirect (${res.status}) not followed` : `HTTP ${res.status}`,
      responseExcerpt: excerpt,
      gone: res.status === 410,
      retryAfterS: res.status === 429 ? retryAfter : null,
    };
  } catch (err) {
    const durationMs = Math.round(performance.now() - started);
    const timedOut = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
    const cause = err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
    return {
      ...base,
      ok: false,
      responseStatus: null,
      durationMs,
      error: timedOut ? `Timed out after ${env.WEBHOOK_TIMEOUT_MS} ms` : `Connection failed: ${cause}`,
      responseExcerpt: null,
    };
  } finally {
    dispatcher.destroy().catch(() => {});
  }
}

export function logAttempt(
  tx: Tx,
  webhook: WebhookRow,
  event: EventPayload,
  attempt: number,
  outcome: Outcome,
  nextRetryAt: Date | null,
) {
  return tx.webhookDelivery.create({
    data: {
      id: newId(),
      organizationId: webhook.organizationId,
      webhookId: webhook.id,
      eventId: event.id,
      event: event.type,
      attempt,
      status: outcome.ok ? "succeeded" : "failed",
      responseStatus: outcome.responseStatus,
      durationMs: outcome.durationMs,
      error: outcome.error,
      responseExcerpt: outcome.responseExcerpt,
      requestHeaders: outcome.requestHeaders as Prisma.InputJsonValue,
      requestBody: outcome.requestBody,
      nextRetryAt,
    },
  });
}

const GONE_REASON = "The receiver answered 410 Gone";

/**
 * A receiver that answers 410 Gone gets nothing more: its webhook is disabled
 * and, when this changed it, the internal `webhook.disabled` event tells the
 * business's team (src/server/mail/plan.ts) in the same transaction.
 */
export function disableGone(tx: Tx, webhookId: string): Promise<void> {
  return disableWebhook(tx, webhookId, GONE_REASON);
}

async function disableWebhook(tx: Tx, webhookId: string, reason: string): Promise<void> {
  const [row] = await tx.$queryRaw<{ organizationId: string; url: string }[]>`
    UPDATE webhook SET status = 'disabled', "disabledReason" = ${reason}, "updatedAt" = now()
    WHERE id = ${webhookId} AND status = 'enabled'
    RETURNING "organizationId", url`;
  if (row) await recordEvent(tx, row.organizationId, "webhook.disabled", { webhookId, url: row.url, reason }, webhookId);
}

/**
 * After an attempt of the delivery job, in its transaction: a delivered one
 * clears the endpoint's failing streak; a failed one starts it (or carries it
 * on), and a streak of nothing but failures for WEBHOOK_DISABLE_AFTER_HOURS
 * disables the endpoint, telling the team as a 410 does.
 */
export async function noteOutcome(tx: Tx, webhookId: string, ok: boolean, now = new Date()): Promise<void> {
  if (ok) {
    await tx.$executeRaw`UPDATE webhook SET "failingSince" = NULL WHERE id = ${webhookId} AND "failingSince" IS NOT NULL`;
    return;
  }
  const [row] = await tx.$queryRaw<{ failingSince: Date }[]>`
    UPDATE webhook SET "failingSince" = COALESCE("failingSince", ${now}) WHERE id = ${webhookId} RETURNING "failingSince"`;
  const hours = env.WEBHOOK_DISABLE_AFTER_HOURS;
  if (row && now.getTime() - row.failingSince.getTime() >= hours * 3_600_000) {
    await disableWebhook(tx, webhookId, `Every delivery failed for ${hours === 72 ? "3 days" : `${hours} hours`}`);
  }
}
