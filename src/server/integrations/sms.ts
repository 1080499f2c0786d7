// Outgoing SMS, behind one function. Live messages go out through Twilio when
// TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and SMS_FROM are set, else through
// Africa's Talking when AFRICASTALKING_USERNAME and AFRICASTALKING_API_KEY are;
// without either, and always in test mode, each message is a JSON file under
// DATA_DIR/sms/. Both SDKs are loaded on first use only.
//
// The caller retries: a failure that may pass (the provider down or slow, 429,
// our credentials or account) is an ordinary Error; a message the provider
// refuses for good (a bad or blacklisted number, a bad request) is SmsRejected.
// A timed-out send may still be delivered, so a retry can send it twice: delivery
// is at least once.
//
// Phone numbers and texts are personal: the info log names the kind, provider
// and id only; outside production a debug line adds the recipient. Thrown
// errors carry neither the credentials nor the recipient's number (the caller
// stores and logs them).
import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Twilio } from "twilio";
import { env } from "@/server/env";
import { logger } from "@/server/logger";

export interface Sms {
  /** E.164: "+" and the full international number. */
  to: string;
  body: string;
  /** What the message is (e.g. "renewal_reminder"): logged, and kept in the file in files mode. */
  kind: string;
  /** false (test mode): never sent, always written to a file. */
  livemode: boolean;
}

export type SmsProvider = "twilio" | "africastalking" | "file";

export function smsProvider(livemode: boolean): SmsProvider {
  if (!livemode) return "file";
  if (env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN && env.SMS_FROM) return "twilio";
  if (env.AFRICASTALKING_USERNAME && env.AFRICASTALKING_API_KEY) return "africastalking";
  return "file";
}

/** The provider refused this message for good (a bad number, a blacklisted recipient, a bad request): do not retry. */
export class SmsRejected extends Error {
  readonly permanent = true;
  constructor(
    message: string,
    readonly provider: SmsProvider,
    /** The provider's own code (Twilio's error code, Africa's Talking's recipient status code), when it gave one. */
    readonly code?: number | string,
  ) {
    super(message);
    this.name = "SmsRejected";
  }
}

export const smsDir = () => path.join(env.DATA_DIR === "memory://" ? path.join(os.tmpdir(), "coverdesk") : env.DATA_DIR, "sms");

const E164 = /^\+[1-9]\d{6,14}$/;

export async function sendSms(sms: Sms): Promise<{ provider: SmsProvider; id: string }> {
  const provider = smsProvider(sms.livemode);
  // Refused in every mode, so test mode fails where live mode would.
  if (!E164.test(sms.to))
    throw new SmsRejected("the recipient is not a phone number in E.164 form (+ and 7 to 15 digits)", provider);
  const id =
    provider === "twilio"
      ? await viaTwilio(sms)
      : provider === "africastalking"
        ? await viaAfricasTalking(sms)
        : await toFile(sms);
  logger.info({ kind: sms.kind, provider, id }, provider === "file" ? "sms written to the local outbox" : "sms sent");
  if (env.NODE_ENV !== "production") logger.debug({ kind: sms.kind, provider, id, to: sms.to }, "sms recipient");
  return { provider, id };
}

// ---------- files ----------

async function toFile(sms: Sms): Promise<string> {
  const dir = smsDir();
  await fs.mkdir(dir, { recursive: true });
  const now = new Date();
  const name = `${now.toISOString().replace(/[:.]/g, "-")}-${crypto.randomBytes(4).toString("hex")}.json`;
  // Written beside, then renamed: a reader of the folder never sees half a file.
  const temp = path.join(dir, `.${name}.tmp`);
  const record = { to: sms.to, body: sms.body, kind: sms.kind, livemode: sms.livemode, createdAt: now.toISOString() };
  try {
    await fs.writeFile(temp, `${JSON.stringify(record, null, 2)}\n`);
    await fs.rename(temp, path.join(dir, name));
  } catch (err) {
    await fs.rm(temp, { force: true }).catch(() => {});
    throw err;
  }
  return name;
}

// ---------- what a failure says ----------

/** 4xx refuses the message for good, except: 401/403 (our credentials), 404 (our account or URL), 408 and 429 (try later). */
const permanentStatus = (status: number) => status >= 400 && status < 500 && ![401, 403, 404, 408, 429].includes(status);

/** An error's text without the credentials or the recipient's number, on one bounded line. */
function clean(text: string, sms: Sms): string {
  const secrets = [env.TWILIO_AUTH_TOKEN, env.AFRICASTALKING_API_KEY];
  if (env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN) {
    secrets.push(Buffer.from(`${env.TWILIO_ACCOUNT_SID}:${env.TWILIO_AUTH_TOKEN}`).toString("base64"));
  }
  for (const secret of secrets) if (secret && secret.length >= 3) text = text.split(secret).join("[redacted]");
  text = text.split(sms.to).join("[number]").split(sms.to.slice(1)).join("[number]");
  return text.replace(/\s+/g, " ").trim().slice(0, 500);
}

/** The text of an SDK's or transport's error: "ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1" and the like. */
function describe(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown } | null;
  let text = typeof e?.message === "string" ? e.message : typeof err === "string" ? err : (JSON.stringify(err) ?? String(err));
  if (typeof e?.code === "string" && !text.includes(e.code)) text = `${e.code}: ${text}`;
  return text;
}

class SmsTimeout extends Error {}
const timedOut = (who: string) =>
  new SmsTimeout(`${who} did not answer within ${env.SMS_TIMEOUT_MS} ms (the message may still have been delivered)`);

/**
 * The provider's answer, or an error after SMS_TIMEOUT_MS. The request itself may go on (the
 * Africa's Talking SDK cannot be cancelled) and the message may still be delivered, so the
 * caller's retry can send it twice: at least once.
 */
function withTimeout<T>(pending: Promise<T>, who: string): Promise<T> {
  pending.catch(() => {}); // an answer that comes after the timeout is dropped, not unhandled
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut(who)), env.SMS_TIMEOUT_MS);
  });
  return Promise.race([pending, timeout]).finally(() => clearTimeout(timer));
}

// ---------- Twilio ----------

type TwilioSdk = { client: Twilio; RestException: (typeof import("twilio"))["RestException"] };

const g = globalThis as unknown as {
  __coverdeskTwilio?: Promise<TwilioSdk>;
  __coverdeskAfricasTalking?: Promise<AfricasTalkingSms>;
};

// One client per process. The SDK also reads TWILIO_EDGE, TWILIO_REGION and TWILIO_LOG_LEVEL from
// process.env itself; none is needed.
const twilio = () =>
  (g.__coverdeskTwilio ??= (async () => {
    const { default: sdk } = await import("twilio");
    const client = sdk(env.TWILIO_ACCOUNT_SID, env.TWILIO_AUTH_TOKEN, { timeout: env.SMS_TIMEOUT_MS });
    // The `api` domain (Messages live under it) builds each request's URL from its public baseUrl.
    if (env.TWILIO_API_URL) client.api.baseUrl = env.TWILIO_API_URL;
    return { client, RestException: sdk.RestException };
  })().catch((err: unknown) => {
    g.__coverdeskTwilio = undefined;
    throw err;
  }));

async function viaTwilio(sms: Sms): Promise<string> {
  const { client, RestException } = await twilio().catch((err: unknown) => {
    throw new Error(clean(`Twilio: ${describe(err)}`, sms));
  });
  let sid: string | undefined;
  try {
    ({ sid } = await withTimeout(client.messages.create({ to: sms.to, from: env.SMS_FROM!, body: sms.body }), "Twilio"));
  } catch (err) {
    if (err instanceof SmsTimeout) throw err;
    // The SDK's own timeout (axios's) usually fires first, at the same SMS_TIMEOUT_MS.
    const code = (err as { code?: unknown } | null)?.code;
    if (code === "ECONNABORTED" || code === "ETIMEDOUT") throw timedOut("Twilio");
    if (!(err instanceof RestException)) throw new Error(clean(`Twilio: ${describe(err)}`, sms));
    // Twilio's error JSON: { code, message, more_info, status }, e.g. 400 with 21211 (invalid 'To'),
    // 21610 (the recipient answered STOP), 21608 (unverified, on a trial account).
    const text = clean(`Twilio ${err.status}${err.code ? ` (error ${err.code})` : ""}: ${err.message}`, sms);
    throw permanentStatus(err.status) ? new SmsRejected(text, "twilio", err.code) : new Error(text);
  }
  if (!sid) throw new Error("Twilio answered without a message sid");
  return sid;
}

// ---------- Africa's Talking ----------

type AfricasTalkingSms = ReturnType<typeof import("africastalking").default>["SMS"];

interface AtRecipient {
  statusCode?: number;
  status?: string;
  messageId?: string;
}

const africasTalking = () =>
  (g.__coverdeskAfricasTalking ??= (async () => {
    const { default: sdk } = await import("africastalking");
    // (A "sandbox" username points the SDK at Africa's Talking's sandbox, here, for every client.)
    const client = sdk({ apiKey: env.AFRICASTALKING_API_KEY!, username: env.AFRICASTALKING_USERNAME! });
    if (env.AFRICASTALKING_API_URL) {
      // The SDK reads its URLs from this module's exports at each request.
      const { default: common } = await import("africastalking/lib/common.js");
      common.BASE_URL = `${env.AFRICASTALKING_API_URL}/version1`;
      common.SMS_URL = `${env.AFRICASTALKING_API_URL}/version1/messaging`;
    }
    return client.SMS;
  })().catch((err: unknown) => {
    g.__coverdeskAfricasTalking = undefined;
    throw err;
  }));

// Africa's Talking answers 201 with a status per recipient (SMSMessageData.Recipients[].statusCode;
// developers.africastalking.com/docs/sms/sending):
//   100 Processed, 101 Sent, 102 Queued: accepted.
//   403 InvalidPhoneNumber, 404 UnsupportedNumberType, 406 UserInBlacklist, 407 CouldNotRoute:
//     this recipient cannot be reached, for good: SmsRejected.
//   401 RiskHold (our account held for review), 402 InvalidSenderId (SMS_FROM), 405 InsufficientBalance:
//     our account or configuration, not the message (as an auth failure): retryable.
//   409 DoNotDisturbRejection: documented as a promotional sender id used outside the hours Nigeria's
//     regulator allows (8pm to 8am); the same message may go later: retryable.
//   500 InternalServerError, 501 GatewayError, 502 RejectedByGateway: theirs: retryable.
//   Any other code: retryable (an unknown code must not drop a message).
const AT_SENT = new Set([100, 101, 102]);
const AT_REJECTED = new Set([403, 404, 406, 407]);

function atRecipient(answer: unknown): AtRecipient | undefined {
  const data = (answer as { SMSMessageData?: { Recipients?: unknown } } | null)?.SMSMessageData;
  return Array.isArray(data?.Recipients) ? (data.Recipients[0] as AtRecipient | undefined) : undefined;
}

function atMessage(answer: unknown): string {
  const data = (answer as { SMSMessageData?: { Message?: unknown } } | null)?.SMSMessageData;
  if (typeof data?.Message === "string") return data.Message;
  return typeof answer === "string" ? answer : (JSON.stringify(answer) ?? String(answer));
}

/** The message id of an accepted recipient, or the error its status code calls for. */
function atOutcome(recipient: AtRecipient, sms: Sms): string {
  const code = Number(recipient.statusCode);
  if (AT_SENT.has(code) && recipient.messageId && recipient.messageId !== "None") return recipient.messageId;
  const text = clean(`Africa's Talking refused the message: ${code} ${recipient.status ?? ""}`, sms);
  throw AT_REJECTED.has(code) ? new SmsRejected(text, "africastalking", code) : new Error(text);
}

async function viaAfricasTalking(sms: Sms): Promise<string> {
  let answer: unknown;
  try {
    const client = await africasTalking();
    answer = await withTimeout(
      client.send({ to: [sms.to], message: sms.body, ...(env.SMS_FROM ? { from: env.SMS_FROM } : {}) }),
      "Africa's Talking",
    );
  } catch (err) {
    if (err instanceof SmsTimeout) throw err;
    const e = err as { isAxiosError?: boolean; response?: { status: number; data: unknown } } | null;
    if (e?.isAxiosError && e.response) {
      // An HTTP error; a refused recipient may come with one too (409 with its Recipients).
      const recipient = atRecipient(e.response.data);
      if (recipient) return atOutcome(recipient, sms);
      const text = clean(`Africa's Talking ${e.response.status}: ${atMessage(e.response.data)}`, sms);
      throw permanentStatus(e.response.status) ? new SmsRejected(text, "africastalking", e.response.status) : new Error(text);
    }
    // The SDK checks each number with libphonenumber before sending: "must NOT contain invalid phone
    // number", or `"to[0]" failed custom validation because Invalid country calling code` when it
    // cannot even parse it (the only custom check of its SMS parameters).
    if (err instanceof Error && !e?.isAxiosError && /phone number|failed custom validation/i.test(err.message)) {
      throw new SmsRejected(clean(`Africa's Talking SDK refused the number: ${err.message}`, sms), "africastalking");
    }
    if (err instanceof Error || e?.isAxiosError) throw new Error(clean(`Africa's Talking: ${describe(err)}`, sms));
    // Anything else is the body of an answer other than 201, which the SDK rejects with.
    answer = err;
  }
  const recipient = atRecipient(answer);
  // No recipient: the request as a whole was refused (e.g. "InvalidSenderId").
  if (!recipient) throw new Error(clean(`Africa's Talking sent nothing: ${atMessage(answer)}`, sms));
  return atOutcome(recipient, sms);
}
