// Authenticator codes for the specs, computed as an app would: from the key in
// the otpauth:// URI (or as shown on the Security page), with better-auth's own
// OTP helper (@better-auth/utils, the library its twoFactor plugin uses).
import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";

export const PERIOD_MS = 30_000;

/** The key of an otpauth:// URI (base32, as an app reads it from the QR code). */
export function keyOfUri(uri: string): string {
  const key = new URL(uri).searchParams.get("secret");
  if (!key) throw new Error(`no secret in ${uri}`);
  return key;
}

/** The code of the time-step `offset` steps from now (0 current, -1 previous, 1 next). */
export async function totpCode(key: string, offset = 0, now = Date.now()): Promise<string> {
  const bytes = base32.decode(key.replace(/\s+/g, "").toUpperCase());
  return createOTP(bytes).hotp(Math.floor(now / PERIOD_MS) + offset);
}

/** Waits, if needed, so that at least `margin` ms remain in the current step (a code computed now keeps its place). */
export async function awayFromStepEnd(margin = 4_000): Promise<void> {
  const left = PERIOD_MS - (Date.now() % PERIOD_MS);
  if (left < margin) await new Promise((r) => setTimeout(r, left + 200));
}

/** Waits until the next time-step starts. */
export async function nextStep(): Promise<void> {
  await new Promise((r) => setTimeout(r, PERIOD_MS - (Date.now() % PERIOD_MS) + 200));
}

/** Turns two-factor on for an account over HTTP (enable, then a code of the current step): its key, backup codes and when that code was made (`at`: its step is used). */
export async function enrolTwoFactor(account: {
  session: import("@playwright/test").APIRequestContext;
  password: string;
}): Promise<{ key: string; backupCodes: string[]; at: number }> {
  const res = await account.session.post("/api/auth/two-factor/enable", { data: { password: account.password } });
  if (res.status() !== 200) throw new Error(`two-factor enable: ${res.status()} ${await res.text()}`);
  const body = (await res.json()) as { totpURI: string; backupCodes: string[] };
  const key = keyOfUri(body.totpURI);
  await awayFromStepEnd();
  const at = Date.now();
  const verified = await account.session.post("/api/auth/two-factor/verify-totp", { data: { code: await totpCode(key, 0, at) } });
  if (verified.status() !== 200) throw new Error(`two-factor verify: ${verified.status()} ${await verified.text()}`);
  return { key, backupCodes: body.backupCodes, at };
}
