// The SMS sender through the real SDKs (twilio, africastalking) against local
// stand-ins speaking each provider's HTTP API: what each provider receives, and
// which failures are final (SmsRejected) and which the caller retries.
//
// The app reads its environment once (src/server/env.ts caches it on
// globalThis), so the variables are stubbed and the cache dropped BEFORE the
// sender is imported (dynamically, below); this file runs isolated. Which
// provider wins is then switched on the loaded `env` itself.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { SMS_MAX_CHARACTERS, SMS_MAX_SEGMENTS, smsSegments } from "@/lib/sms";
import {
  africasTalkingAnswers,
  fakeAfricasTalking,
  type AfricasTalkingAnswer,
  type AfricasTalkingRequest,
} from "@/test/fake-africastalking";
import { fakeTwilio, twilioErrors, type TwilioAnswer, type TwilioRequest } from "@/test/fake-twilio";

const SID = `AC${"0123456789abcdef".repeat(2)}`;
const TOKEN = "twilio_auth_token_5f1e9c0d7a3b4e21";
const BASIC = Buffer.from(`${SID}:${TOKEN}`).toString("base64");
const AT_USERNAME = "coverdesk";
const AT_KEY = "atsk_fake_8c2d4e6f0a1b3c5d7e9f";
const FROM = "+15005550006";
const TO = "+2348031234567";
const TIMEOUT_MS = 300;

const twilioRequests: TwilioRequest[] = [];
let twilioAnswer: TwilioAnswer | ((req: TwilioRequest) => TwilioAnswer) = "queued";
const twilio = fakeTwilio({
  accountSid: SID,
  authToken: TOKEN,
  requests: twilioRequests,
  answer: (req) => (typeof twilioAnswer === "function" ? twilioAnswer(req) : twilioAnswer),
});

const atRequests: AfricasTalkingRequest[] = [];
let atAnswer: AfricasTalkingAnswer = "sent";
const africasTalking = fakeAfricasTalking({
  username: AT_USERNAME,
  apiKey: AT_KEY,
  requests: atRequests,
  answer: () => atAnswer,
});

let sms: typeof import("./sms");
let env: typeof import("@/server/env").env;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "coverdesk-sms-"));
  vi.stubEnv("DATA_DIR", dataDir);
  vi.stubEnv("TWILIO_ACCOUNT_SID", SID);
  vi.stubEnv("TWILIO_AUTH_TOKEN", TOKEN);
  vi.stubEnv("SMS_FROM", FROM);
  vi.stubEnv("TWILIO_API_URL", await twilio.start());
  vi.stubEnv("AFRICASTALKING_USERNAME", AT_USERNAME);
  vi.stubEnv("AFRICASTALKING_API_KEY", AT_KEY);
  vi.stubEnv("AFRICASTALKING_API_URL", await africasTalking.start());
  vi.stubEnv("SMS_TIMEOUT_MS", String(TIMEOUT_MS));
  delete (globalThis as { __coverdeskEnv?: unknown }).__coverdeskEnv;
  sms = await import("./sms");
  env = (await import("@/server/env")).env;
});

afterAll(async () => {
  await Promise.all([twilio.stop(), africasTalking.stop()]);
  vi.unstubAllEnvs();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(() => {
  twilioRequests.length = 0;
  atRequests.length = 0;
  twilioAnswer = "queued";
  atAnswer = "sent";
});

const message = (over: Partial<import("./sms").Sms> = {}) => ({
  to: TO,
  body: "Your cover POL-1042 renews on 3 March.",
  kind: "renewal_reminder",
  livemode: true,
  ...over,
});

/** The send's rejection, and how long it took. */
async function failure(promise: Promise<unknown>) {
  const started = Date.now();
  const error = await promise.then(
    () => expect.fail("the send should have failed"),
    (err: unknown) => err as Error,
  );
  return { error, ms: Date.now() - started };
}

describe("provider choice", () => {
  it("Twilio when configured, else Africa's Talking, else files; always files in test mode", () => {
    expect(sms.smsProvider(true)).toBe("twilio");
    expect(sms.smsProvider(false)).toBe("file");
    const saved = { ...env };
    try {
      env.SMS_FROM = undefined; // Twilio needs its sender
      expect(sms.smsProvider(true)).toBe("africastalking");
      env.AFRICASTALKING_API_KEY = undefined;
      expect(sms.smsProvider(true)).toBe("file");
    } finally {
      Object.assign(env, saved);
    }
  });
});

describe("Twilio", () => {
  it("sends To/From/Body with the account's Basic auth, and returns Twilio's sid", async () => {
    const sent = await sms.sendSms(message());
    expect(twilioRequests).toHaveLength(1);
    const [req] = twilioRequests;
    expect(req!.path).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(req!.authorization).toBe(`Basic ${BASIC}`);
    expect(req!.contentType).toContain("application/x-www-form-urlencoded");
    expect(req!.form).toEqual({ To: TO, From: FROM, Body: "Your cover POL-1042 renews on 3 March." });
    const sid = (req!.response!.body as { sid: string }).sid;
    expect(sid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(sent).toEqual({ provider: "twilio", id: sid });
  });

  it("400 with error 21211 (invalid 'To') is final: SmsRejected, without the number in its message", async () => {
    twilioAnswer = twilioErrors.invalidTo(TO);
    const { error } = await failure(sms.sendSms(message()));
    expect(error).toBeInstanceOf(sms.SmsRejected);
    expect((error as InstanceType<typeof sms.SmsRejected>).permanent).toBe(true);
    expect((error as InstanceType<typeof sms.SmsRejected>).code).toBe(21211);
    expect(error.message).toContain("21211");
    expect(error.message).not.toContain(TO.slice(1));
  });

  it("500 is retried: an ordinary Error", async () => {
    twilioAnswer = twilioErrors.internal;
    const { error } = await failure(sms.sendSms(message()));
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(sms.SmsRejected);
    expect(error.message).toContain("500");
  });

  it("429 and 401 (our credentials) are retried too: the message is not at fault", async () => {
    twilioAnswer = twilioErrors.tooManyRequests;
    expect((await failure(sms.sendSms(message()))).error).not.toBeInstanceOf(sms.SmsRejected);
    twilioAnswer = { status: 401, code: 20003, message: "Authenticate" };
    const { error } = await failure(sms.sendSms(message()));
    expect(error).not.toBeInstanceOf(sms.SmsRejected);
    expect(error.message).toContain("20003");
  });

  it("a Twilio that never answers fails within about SMS_TIMEOUT_MS, as a retryable Error", async () => {
    twilioAnswer = "hang";
    const { error, ms } = await failure(sms.sendSms(message()));
    expect(error).not.toBeInstanceOf(sms.SmsRejected);
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(ms).toBeLessThan(TIMEOUT_MS + 1_500);
    expect(twilioRequests).toHaveLength(1);
  });

  it("an error never carries the auth token, even when the answer echoes it", async () => {
    twilioAnswer = (req) => ({ status: 500, code: 20500, message: `upstream rejected ${req.authorization} for ${SID}:${TOKEN}` });
    const { error } = await failure(sms.sendSms(message()));
    expect(error.message).toContain("[redacted]");
    expect(error.message).not.toContain(TOKEN);
    expect(error.message).not.toContain(BASIC);
  });
});

describe("Africa's Talking", () => {
  const saved: Partial<typeof env> = {};
  beforeEach(() => {
    Object.assign(saved, { TWILIO_ACCOUNT_SID: env.TWILIO_ACCOUNT_SID, SMS_FROM: env.SMS_FROM });
    env.TWILIO_ACCOUNT_SID = undefined;
    env.SMS_FROM = "COVERDESK";
  });
  afterEach(() => {
    Object.assign(env, saved);
  });

  it("sends username/to/message/from with the apiKey header, and returns the recipient's messageId", async () => {
    const sent = await sms.sendSms(message());
    expect(twilioRequests).toHaveLength(0);
    expect(atRequests).toHaveLength(1);
    const [req] = atRequests;
    expect(req!.path).toBe("/version1/messaging");
    expect(req!.apiKey).toBe(AT_KEY);
    expect(req!.contentType).toContain("application/x-www-form-urlencoded");
    expect(req!.form).toMatchObject({
      username: AT_USERNAME,
      to: TO,
      message: "Your cover POL-1042 renews on 3 March.",
      from: "COVERDESK",
    });
    const body = req!.response!.body as { SMSMessageData: { Recipients: { messageId: string }[] } };
    const messageId = body.SMSMessageData.Recipients[0]!.messageId;
    expect(messageId).toMatch(/^ATXid_/);
    expect(sent).toEqual({ provider: "africastalking", id: messageId });
  });

  it("without SMS_FROM, sends no `from` (the account's default sender)", async () => {
    env.SMS_FROM = undefined;
    await sms.sendSms(message());
    expect(atRequests[0]!.form).not.toHaveProperty("from");
  });

  it("a recipient refused as InvalidPhoneNumber (403) is final: SmsRejected", async () => {
    atAnswer = africasTalkingAnswers.invalidPhoneNumber;
    const { error } = await failure(sms.sendSms(message()));
    expect(error).toBeInstanceOf(sms.SmsRejected);
    expect((error as InstanceType<typeof sms.SmsRejected>).code).toBe(403);
    expect(error.message).toContain("InvalidPhoneNumber");
    atAnswer = africasTalkingAnswers.userInBlacklist;
    expect((await failure(sms.sendSms(message()))).error).toBeInstanceOf(sms.SmsRejected);
  });

  it("a recipient refused for our account (405 InsufficientBalance) or their gateway (501) is retried", async () => {
    atAnswer = africasTalkingAnswers.insufficientBalance;
    const balance = (await failure(sms.sendSms(message()))).error;
    expect(balance).not.toBeInstanceOf(sms.SmsRejected);
    expect(balance.message).toContain("InsufficientBalance");
    atAnswer = africasTalkingAnswers.gatewayError;
    expect((await failure(sms.sendSms(message()))).error).not.toBeInstanceOf(sms.SmsRejected);
  });

  it("a number the SDK itself finds invalid (libphonenumber) is final, and nothing is sent", async () => {
    for (const to of ["+2340000000", "+9999999999"]) {
      const { error } = await failure(sms.sendSms(message({ to })));
      expect(error).toBeInstanceOf(sms.SmsRejected);
      expect(error.message).toContain("SDK refused the number");
    }
    expect(atRequests).toHaveLength(0);
  });

  it("HTTP 500 is retried: an ordinary Error", async () => {
    atAnswer = africasTalkingAnswers.internal;
    const { error } = await failure(sms.sendSms(message()));
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(sms.SmsRejected);
    expect(error.message).toContain("500");
  });

  it("HTTP 400 (a bad request) is final", async () => {
    atAnswer = { httpStatus: 400, text: "Invalid request" };
    expect((await failure(sms.sendSms(message()))).error).toBeInstanceOf(sms.SmsRejected);
  });

  it("an Africa's Talking that never answers fails within about SMS_TIMEOUT_MS, as a retryable Error", async () => {
    atAnswer = "hang";
    const { error, ms } = await failure(sms.sendSms(message()));
    expect(error).not.toBeInstanceOf(sms.SmsRejected);
    expect(error.message).toContain(`${TIMEOUT_MS} ms`);
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(ms).toBeLessThan(TIMEOUT_MS + 1_500);
    expect(atRequests).toHaveLength(1);
  });

  it("an error never carries the API key, even when the answer echoes it", async () => {
    atAnswer = { httpStatus: 502, text: `bad gateway (apiKey=${AT_KEY})` };
    const { error } = await failure(sms.sendSms(message()));
    expect(error).not.toBeInstanceOf(sms.SmsRejected);
    expect(error.message).toContain("[redacted]");
    expect(error.message).not.toContain(AT_KEY);
  });
});

describe("files", () => {
  it("test mode writes a JSON file even with Twilio configured, and the provider sees nothing", async () => {
    const sent = await sms.sendSms(message({ livemode: false, body: "Test-mode reminder for Adéwálé" }));
    expect(sent.provider).toBe("file");
    expect(sent.id).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z-[0-9a-f]{8}\.json$/);
    expect(twilioRequests).toHaveLength(0);
    expect(atRequests).toHaveLength(0);
    const dir = sms.smsDir();
    expect(dir).toBe(path.join(dataDir, "sms"));
    expect(fs.readdirSync(dir)).toContain(sent.id); // …and no temporary file left beside it
    expect(fs.readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    const written = JSON.parse(fs.readFileSync(path.join(dir, sent.id), "utf8")) as Record<string, unknown>;
    expect(written).toEqual({
      to: TO,
      body: "Test-mode reminder for Adéwálé",
      kind: "renewal_reminder",
      livemode: false,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
  });

  it("a number not in E.164 form is refused in every mode, before any provider", async () => {
    for (const livemode of [true, false]) {
      const { error } = await failure(sms.sendSms(message({ to: "08031234567", livemode })));
      expect(error).toBeInstanceOf(sms.SmsRejected);
    }
    expect(twilioRequests).toHaveLength(0);
  });
});

describe("smsSegments", () => {
  it("plain English is GSM-7", () => {
    expect(smsSegments("Your cover POL-1042 renews on 3 March.")).toEqual({ encoding: "GSM-7", segments: 1, characters: 38 });
  });

  it("a Yoruba name makes the whole text UCS-2", () => {
    const counted = smsSegments("Adéwálé Ọlọ́run");
    expect(counted.encoding).toBe("UCS-2");
    expect(counted.segments).toBe(1);
  });

  it("160 GSM-7 characters are one segment, 161 are two", () => {
    expect(smsSegments("a".repeat(160))).toEqual({ encoding: "GSM-7", segments: 1, characters: 160 });
    expect(smsSegments("a".repeat(161))).toEqual({ encoding: "GSM-7", segments: 2, characters: 161 });
    // An extension character costs two.
    expect(smsSegments("€".repeat(80)).segments).toBe(1);
    expect(smsSegments("€".repeat(81)).segments).toBe(2);
  });

  it("70 UCS-2 characters are one segment, 71 are two", () => {
    expect(smsSegments("Ọ".repeat(70))).toEqual({ encoding: "UCS-2", segments: 1, characters: 70 });
    expect(smsSegments("Ọ".repeat(71))).toEqual({ encoding: "UCS-2", segments: 2, characters: 71 });
  });

  it("the limits: two segments hold 306 GSM-7 characters, so the 320-character cap alone does not keep a text to two", () => {
    expect(SMS_MAX_SEGMENTS).toBe(2);
    expect(SMS_MAX_CHARACTERS).toBe(320);
    expect(smsSegments("a".repeat(306)).segments).toBe(2);
    expect(smsSegments("a".repeat(307)).segments).toBe(3);
  });
});
