// Idempotency-Key on POST: the first response (status + body) is kept for 24 h
// per (organization, key) and replayed; another body with the same key is a
// 422, a second request while the first runs is a 409. Running is a lease: a
// claim whose process died (kill -9, OOM) before storing its answer is taken
// over by a retry once the lease is over. Running the request again is safe:
// its business effect is guarded by the row locks and unique constraints it
// takes anyway; the key only saves the client a duplicate answer.
import crypto from "node:crypto";
import { db } from "@/server/db/client";
import { AppError, isUniqueViolation } from "@/server/errors";
import { seal, unseal } from "@/server/seal";

const TTL_MS = 24 * 60 * 60 * 1000;
/** Longer than any request takes; a shorter one is only for tests. */
export const LEASE_MS = 60 * 1000;

export type Claim = { kind: "new" } | { kind: "replay"; status: number; body: string };

// Stored responses can hold secrets shown once (a new API key): keep them sealed.
const PURPOSE = "idempotency-response";

export const requestHash = (method: string, path: string, rawBody: string) =>
  crypto.createHash("sha256").update(`${method} ${path}\n${rawBody}`).digest("hex");

export async function claimIdempotencyKey(
  organizationId: string,
  key: string,
  hash: string,
  { leaseMs = LEASE_MS }: { leaseMs?: number } = {},
): Promise<Claim> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const now = Date.now();
      await db.idempotencyKey.create({
        data: {
          organizationId,
          key,
          requestHash: hash,
          state: "in_progress",
          expiresAt: new Date(now + TTL_MS),
          leaseUntil: new Date(now + leaseMs),
        },
      });
      return { kind: "new" };
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
    const existing = await db.idempotencyKey.findUnique({ where: { organizationId_key: { organizationId, key } } });
    if (!existing) continue; // released meanwhile: try once more
    if (existing.expiresAt < new Date()) {
      await db.idempotencyKey.deleteMany({ where: { organizationId, key, expiresAt: { lt: new Date() } } });
      continue;
    }
    if (existing.requestHash !== hash) {
      throw new AppError("idempotency_key_reused", "This Idempotency-Key was used with a different request");
    }
    if (existing.state !== "completed" || existing.responseStatus === null) {
      // Take over a claim whose lease ran out; of several retries, one wins.
      const now = new Date();
      const { count } = await db.idempotencyKey.updateMany({
        where: { organizationId, key, requestHash: hash, state: "in_progress", leaseUntil: { lt: now } },
        data: { leaseUntil: new Date(now.getTime() + leaseMs) },
      });
      if (count === 1) return { kind: "new" };
      throw new AppError("idempotency_in_progress", "A request with this Idempotency-Key is still being processed");
    }
    return {
      kind: "replay",
      status: existing.responseStatus,
      body: existing.responseBody ? unseal(PURPOSE, existing.responseBody) : "",
    };
  }
  throw new AppError("idempotency_in_progress", "A request with this Idempotency-Key is still being processed");
}

export async function completeIdempotencyKey(organizationId: string, key: string, status: number, body: string) {
  await db.idempotencyKey.update({
    where: { organizationId_key: { organizationId, key } },
    data: { state: "completed", responseStatus: status, responseBody: body ? seal(PURPOSE, body) : null },
  });
}

/** Forgets a key whose request failed on our side, so the client can retry it. */
export async function releaseIdempotencyKey(organizationId: string, key: string) {
  await db.idempotencyKey.deleteMany({ where: { organizationId, key, state: "in_progress" } });
}
