// API key material: `cd_live_` or `cd_test_` (the mode) + 32 base62
// characters (≈190 bits), kept only as a SHA-256 hash.
import crypto from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const KEY_MODES = ["live", "test"] as const;
export type KeyMode = (typeof KEY_MODES)[number];
const KEY_PATTERN = /^cd_(live|test)_[0-9A-Za-z]{32}$/;

export function generateApiKey(mode: KeyMode = "live"): string {
  let out = "";
  while (out.length < 32) {
    for (const byte of crypto.randomBytes(48)) {
      // 248 = 4 × 62: reject the tail so every character is equally likely.
      if (byte < 248 && out.length < 32) out += ALPHABET[byte % 62];
    }
  }
  return `cd_${mode}_${out}`;
}

export const looksLikeApiKey = (value: string) => KEY_PATTERN.test(value);

/** The mode a key's prefix tells. */
export const modeOfKey = (key: string): KeyMode => (key.startsWith("cd_test_") ? "test" : "live");

export const hashApiKey = (key: string) => crypto.createHash("sha256").update(key).digest("hex");

export const keyPrefix = (key: string) => key.slice(0, 12);

/** Constant-time equality of two hex digests. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}
