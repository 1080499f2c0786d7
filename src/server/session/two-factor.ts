// Two-factor sign-in (better-auth's twoFactor plugin, configured in
// src/server/auth.ts): what the plugin does not do itself.
//
// The plugin keeps the authenticator's secret and the backup codes encrypted
// with the auth secret (its `symmetricEncrypt`), removes a backup code once
// used, allows 5 codes per sign-in challenge and locks the account's second
// step after TWO_FACTOR_MAX_FAILURES wrong codes in a row. It accepts a TOTP
// code of the previous, current or next 30 s step, but as many times as it is
// sent: `claimTotpStep` refuses a code whose step is not after the last one
// accepted for that user (kept in two_factor."lastTotpStep", claimed with a
// conditional update, so two requests with the same code cannot both pass).
import crypto from "node:crypto";
import { symmetricDecrypt, symmetricEncrypt } from "better-auth/crypto";
import { db } from "@/server/db/client";

export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_S = 30;
export const BACKUP_CODE_COUNT = 10;
export const TRUST_DEVICE_DAYS = 30;
export const TWO_FACTOR_MAX_FAILURES = 5;
export const TWO_FACTOR_LOCK_S = 15 * 60;

/** RFC 4226 HOTP with HMAC-SHA-1, as the plugin computes it (the secret's UTF-8 bytes as the key). */
export function hotp(key: string | Uint8Array, counter: number, digits = TOTP_DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = crypto.createHmac("sha1", key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const value = mac.readUInt32BE(offset) & 0x7fffffff;
  return (value % 10 ** digits).toString().padStart(digits, "0");
}

export const totpStepAt = (ms: number) => Math.floor(ms / 1000 / TOTP_PERIOD_S);

/** The step (previous, current or next) whose code `code` is, or null. */
export function matchingTotpStep(secret: string | Uint8Array, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const current = totpStepAt(now);
  let found: number | null = null;
  for (const step of [current - 1, current, current + 1]) {
    const expected = hotp(secret, step);
    if (crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(code)) && found === null) found = step;
  }
  return found;
}

/** The plugin's secret in clear: generated ones are used as UTF-8 bytes, imported ones are `base32:<secret>`. */
async function totpSecretOf(encrypted: string, key: Parameters<typeof symmetricDecrypt>[0]["key"]): Promise<string | Uint8Array> {
  const secret = await symmetricDecrypt({ key, data: encrypted });
  if (!secret.startsWith("base32:")) return secret;
  return base32Decode(secret.slice("base32:".length));
}

function base32Decode(text: string): Uint8Array {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of text.toUpperCase().replace(/=+$/, "")) {
    const index = alphabet.indexOf(ch);
    if (index < 0) continue;
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Uint8Array.from(out);
}

export type TotpClaim = "claimed" | "replayed" | "no-match";

/**
 * Before the plugin checks `code` for `userId`: when it is a valid code of a
 * step after the last accepted one, that step becomes the last accepted
 * ("claimed"); a valid code of that step or an older one is "replayed"; any
 * other code is left to the plugin to refuse and count ("no-match").
 */
export async function claimTotpStep(
  userId: string,
  code: string,
  key: Parameters<typeof symmetricDecrypt>[0]["key"],
  now = Date.now(),
): Promise<TotpClaim> {
  const row = await db.twoFactor.findUnique({ where: { userId }, select: { secret: true, lastTotpStep: true } });
  if (!row) return "no-match";
  let secret: string | Uint8Array;
  try {
    secret = await totpSecretOf(row.secret, key);
  } catch {
    return "no-match"; // the plugin answers an undecryptable secret itself
  }
  const step = matchingTotpStep(secret, code.trim(), now);
  if (step === null) return "no-match";
  if (row.lastTotpStep !== null && step <= row.lastTotpStep) return "replayed";
  const { count } = await db.twoFactor.updateMany({
    where: { userId, OR: [{ lastTotpStep: null }, { lastTotpStep: { lt: step } }] },
    data: { lastTotpStep: step },
  });
  return count === 1 ? "claimed" : "replayed";
}

/** A new authenticator (enable again before it was confirmed) starts with no step used. */
export async function forgetTotpSteps(userId: string): Promise<void> {
  await db.twoFactor.updateMany({ where: { userId }, data: { lastTotpStep: null } });
}

export type SignedInCodeCheck =
  | { ok: true; kind: "totp" | "backup" }
  | { ok: false; reason: "not_enabled" | "wrong" | "replayed" | "locked"; retryAfterSeconds?: number };

/**
 * A signed-in user's authenticator or backup code (confirming a money move,
 * turning two-factor off): the sign-in's rules and its lock. A code of an
 * already used step is refused, a backup code is used up, and a wrong code
 * counts toward the same TWO_FACTOR_MAX_FAILURES as at sign-in — the lock
 * (lockedUntil) then refuses codes here and at sign-in alike.
 */
export async function checkSignedInCode(
  userId: string,
  code: string,
  key: Parameters<typeof symmetricDecrypt>[0]["key"],
  now = Date.now(),
): Promise<SignedInCodeCheck> {
  const row = await db.twoFactor.findUnique({
    where: { userId },
    select: { id: true, backupCodes: true, lockedUntil: true, verified: true },
  });
  const enabled = await db.user.findUnique({ where: { id: userId }, select: { twoFactorEnabled: true } });
  if (!row || !enabled?.twoFactorEnabled) return { ok: false, reason: "not_enabled" };
  if (row.lockedUntil && row.lockedUntil.getTime() > now) {
    return { ok: false, reason: "locked", retryAfterSeconds: Math.ceil((row.lockedUntil.getTime() - now) / 1000) };
  }
  const given = code.trim();
  if (/^\d{6}$/.test(given)) {
    const claim = await claimTotpStep(userId, given, key, now);
    if (claim === "claimed") return passed(row.id, "totp");
    if (claim === "replayed") return { ok: false, reason: "replayed" };
  } else if (given.length > 0 && given.length <= 32) {
    let codes: unknown = null;
    try {
      codes = JSON.parse(await symmetricDecrypt({ key, data: row.backupCodes }));
    } catch {
      codes = null;
    }
    if (Array.isArray(codes) && codes.includes(given)) {
      const rest = codes.filter((c) => c !== given);
      // Used up once: two requests with the same code cannot both swap the list.
      const { count } = await db.twoFactor.updateMany({
        where: { id: row.id, backupCodes: row.backupCodes },
        data: { backupCodes: await symmetricEncrypt({ key, data: JSON.stringify(rest) }) },
      });
      if (count === 1) return passed(row.id, "backup");
      return { ok: false, reason: "replayed" };
    }
  }
  // Wrong: counted, and locked at the limit (an expired lock starts the count again).
  const counted = await db.twoFactor.update({
    where: { id: row.id },
    data: {
      failedVerificationCount: row.lockedUntil ? 1 : { increment: 1 },
      ...(row.lockedUntil ? { lockedUntil: null } : {}),
    },
    select: { failedVerificationCount: true },
  });
  if (counted.failedVerificationCount >= TWO_FACTOR_MAX_FAILURES) {
    await db.twoFactor.update({ where: { id: row.id }, data: { lockedUntil: new Date(now + TWO_FACTOR_LOCK_S * 1000) } });
    return { ok: false, reason: "locked", retryAfterSeconds: TWO_FACTOR_LOCK_S };
  }
  return { ok: false, reason: "wrong" };
}

async function passed(id: string, kind: "totp" | "backup"): Promise<SignedInCodeCheck> {
  await db.twoFactor.update({ where: { id }, data: { failedVerificationCount: 0, lockedUntil: null } });
  return { ok: true, kind };
}

/** The key better-auth encrypts the two-factor secrets with (its secret configuration). */
export async function twoFactorKey(): Promise<Parameters<typeof symmetricDecrypt>[0]["key"]> {
  const { getAuth } = await import("@/server/auth");
  return (await getAuth().$context).secretConfig;
}
