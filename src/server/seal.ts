// Secrets we must be able to read back (webhook signing secrets, stored
// idempotent responses) are sealed with AES-256-GCM under a key derived from
// the app secret, one key per purpose.
import crypto from "node:crypto";
import { authSecret } from "@/server/env";

const keys = new Map<string, Buffer>();
const keyFor = (purpose: string) => {
  let key = keys.get(purpose);
  if (!key) {
    key = Buffer.from(crypto.hkdfSync("sha256", authSecret(), "coverdesk", purpose, 32));
    keys.set(purpose, key);
  }
  return key;
};

export function seal(purpose: string, plain: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", keyFor(purpose), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64")}`;
}

export function unseal(purpose: string, sealed: string): string {
  const raw = Buffer.from(sealed.slice(3), "base64");
  const decipher = crypto.createDecipheriv("aes-256-gcm", keyFor(purpose), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}
