// Idempotency-Key on POST: the first response (status + body) is kept for 24 h
// per (organization, key) and replayed; another body with the same key is a
// 422, a second request while the first runs is a 409.
import crypto from "node:crypto";
import { db } from "@/server/db/client";
import { authSecret } from "@/server/env";
import { AppError, isUniqueViolation } from "@/server/errors";

const TTL_MS = 24 * 60 * 60 * 1000;

export type Claim = { kind: "new" } | { kind: "replay"; status: number; body: string };

// Stored responses can hold secrets shown once (a new API key), so they are
// kept encrypted (AES-256-GCM, key derived from the app secret), never in clear.
let sealingKey: Buffer | undefined;
const keyOf = () =>
  (sealingKey ??= Buffer.from(crypto.hkdfSync("sha256", authSecret(), "coverdesk", "idempotency-response", 32)));

function seal(plain: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", keyOf(), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64")}`;
}

function unseal(stored: string): string {
  const raw = Buffer.from(stored.slice(3), "base64");
  const decipher = crypto.createDecipheriv("aes-256-gcm", keyOf(), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}

export const requestHash = (method: string, path: string, rawBody: string) =>
  crypto.createHash("sha256").update(`${method} ${path}\n${rawBody}`).digest("hex");

export async function claimIdempotencyKey(organizationId: string, key: string, hash: string): Promise<Claim> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await db.idempotencyKey.create({
        data: { organizationId, key, requestHash: hash, state: "in_progress", expiresAt: new Date(Date.now() + TTL_MS) },
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
      throw new AppError("idempotency_in_progress", "A request with this Idempotency-Key is still being processed");
    }
    return { kind: "replay", status: existing.responseStatus, body: existing.responseBody ? unseal(existing.responseBody) : "" };
  }
  throw new AppError("idempotency_in_progress", "A request with this Idempotency-Key is still being processed");
}

export async function completeIdempotencyKey(organizationId: string, key: string, status: number, body: string) {
  await db.idempotencyKey.update({
    where: { organizationId_key: { organizationId, key } },
    data: { state: "completed", responseStatus: status, responseBody: body ? seal(body) : null },
  });
}

/** Forgets a key whose request failed on our side, so the client can retry it. */
export async function releaseIdempotencyKey(organizationId: string, key: string) {
  await db.idempotencyKey.deleteMany({ where: { organizationId, key, state: "in_progress" } });
}
