// API key material: `cd_live_` + 32 base62 characters (≈190 bits), kept only
// as a SHA-256 hash.
import crypto from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KEY_PREFIX = "cd_live_";
const KEY_PATTERN = /^cd_live_[0-9A-Za-z]{32}$/;

export function generateApiKey(): string {
  let out = "";
  while (out.length < 32) {
    for (const byte of crypto.randomBytes(48)) {
      // 248 = 4 × 62: reject the tail so every character is equally likely.
      if (byte < 248 && out.length < 32) out += ALPHABET[byte % 62];
    }
  }
  return KEY_PREFIX + out;
}

export const looksLikeApiKey = (value: string) => KEY_PATTERN.test(value);

export const hashApiKey = (key: string) => crypto.createHash("sha256").update(key).digest("hex");

export const keyPrefix = (key: string) => key.slice(0, 12);

/** Constant-time equality of two hex digests. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}
