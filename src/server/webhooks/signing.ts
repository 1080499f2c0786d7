// How receivers verify us: the source's rule (hex HMAC-SHA256 of the raw body
// with the secret) and Standard Webhooks (v1, base64 HMAC-SHA256 of
// "{id}.{timestamp}.{body}").
import crypto from "node:crypto";

export const generateWebhookSecret = () => `whsec_${crypto.randomBytes(32).toString("base64")}`;

/** Standard Webhooks key: the base64 after `whsec_`, else the secret's UTF-8 bytes. */
const standardKey = (secret: string) =>
  secret.startsWith("whsec_") ? Buffer.from(secret.slice(6), "base64") : Buffer.from(secret, "utf8");

/**
 * The headers of one delivery. While a rolled secret overlaps (`previous`),
 * `webhook-signature` lists a `v1,` signature per secret, the new one first
 * (Standard Webhooks: space-separated, a receiver accepts any that verifies);
 * `X-Coverdesk-Signature` is the new secret's.
 */
export function signatureHeaders(
  secret: string,
  eventId: string,
  type: string,
  body: string,
  timestamp = Math.floor(Date.now() / 1000),
  previous?: string | null,
) {
  const hex = crypto.createHmac("sha256", secret).update(body).digest("hex");
  const v1 = (key: string) =>
    `v1,${crypto.createHmac("sha256", standardKey(key)).update(`${eventId}.${timestamp}.${body}`).digest("base64")}`;
  const standard = [secret, ...(previous ? [previous] : [])].map(v1).join(" ");
  return {
    "Content-Type": "application/json",
    "User-Agent": "Coverdesk-Webhooks/1.0",
    "X-Coverdesk-Signature": hex,
    "X-Coverdesk-Event": type,
    "webhook-id": eventId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": standard,
  };
}
