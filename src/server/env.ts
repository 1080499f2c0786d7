// Every environment variable the app reads, validated once at start. Nothing
// else reads process.env: import `env` from here.
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import net from "node:net";
import { z } from "@/lib/messages";

const bool = (def: boolean) =>
  z
    .enum(["true", "false", "1", "0", ""])
    .optional()
    .transform((v) => (v === undefined || v === "" ? def : v === "true" || v === "1"));

const int = (def: number, min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return def;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: "custom", message: `must be a whole number from ${min} to ${max}` });
        return z.NEVER;
      }
      return n;
    });

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), "must be a postgres:// URL"),
  DATA_DIR: z.string().default("./.data"),
  MIGRATE_ON_START: bool(true),
  PORT: int(3000, 1, 65535),
  APP_URL: z.url().optional(),
  BETTER_AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  AUTH_RATE_LIMIT: bool(true),
  /**
   * scrypt's cost N for NEW password hashes (a power of two, 1024–1048576; default 16384, better-auth's).
   * Each hash records its own N, so stored passwords keep working when it changes. Only test servers
   * lower it (the suite signs up hundreds of accounts; 16384 costs ~140 ms of CPU per hash on 2 cores).
   */
  PASSWORD_SCRYPT_N: int(16_384, 1_024, 1_048_576).refine((n) => (n & (n - 1)) === 0, "must be a power of two"),
  // Proxies whose X-Forwarded-For / X-Real-IP are believed (IPs or CIDRs, comma-separated); none by default.
  TRUSTED_PROXIES: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const list = (v ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = list.filter((entry) => {
        const [address = "", bits, ...rest] = entry.split("/");
        const family = net.isIP(address);
        const max = family === 4 ? 32 : 128;
        return !family || rest.length > 0 || (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= max));
      });
      if (bad.length) {
        ctx.addIssue({ code: "custom", message: `not an IP address or CIDR range: ${bad.join(", ")}` });
        return z.NEVER;
      }
      return list;
    }),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  REDIS_URL: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  SMTP_URL: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  MAIL_FROM: z.string().default("Coverdesk <no-reply@coverdesk.local>"),
  // SMS (src/server/integrations/sms.ts): Twilio when its SID, token and SMS_FROM are set, else
  // Africa's Talking when its username and key are set, else (and always in test mode) JSON files
  // under DATA_DIR/sms/. SMS_FROM: a Twilio number in E.164, or an Africa's Talking sender id / short code.
  TWILIO_ACCOUNT_SID: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  TWILIO_AUTH_TOKEN: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  SMS_FROM: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  // Tests only: a local stand-in for https://api.twilio.com.
  TWILIO_API_URL: z
    .string()
    .optional()
    .transform((v) => (v ? v.replace(/\/+$/, "") : undefined))
    .refine((v) => v === undefined || /^https?:\/\/[^/]/.test(v), "must be an http(s):// URL"),
  AFRICASTALKING_USERNAME: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  AFRICASTALKING_API_KEY: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  // Tests only: a local stand-in for https://api.africastalking.com (messages go to `${it}/version1/messaging`).
  AFRICASTALKING_API_URL: z
    .string()
    .optional()
    .transform((v) => (v ? v.replace(/\/+$/, "") : undefined))
    .refine((v) => v === undefined || /^https?:\/\/[^/]/.test(v), "must be an http(s):// URL"),
  /** How long an SMS provider may take to answer before the send counts as failed (and is retried). */
  SMS_TIMEOUT_MS: int(15_000, 100, 120_000),
  PLATFORM_FEE_BPS: int(150, 0, 10000),
  PAYSTACK_SECRET_KEY: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  PAYSTACK_BASE_URL: z.url().default("https://api.paystack.co"),
  // Who takes LIVE payments and payouts: "paystack" (needs PAYSTACK_SECRET_KEY), or "sandbox" for a
  // demo deployment whose live mode uses the test cards. Unset: Paystack when its key is set, else the
  // sandbox on the embedded database (the quick start), else none (live payments answer 409).
  // Test mode always uses the sandbox.
  PAYMENTS_PROVIDER: z
    .enum(["sandbox", "paystack"], "must be sandbox or paystack")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  // Sandbox payouts settle this long after a withdrawal is requested.
  PAYOUT_DELAY_SECONDS: int(5, 0, 86_400),
  /** How long a renewal charge under way leaves its coverage alone before it is charged again (the same reference) after a crash. */
  RENEWAL_LEASE_SECONDS: int(600, 1, 86_400),
  MAX_UPLOAD_BYTES: int(10 * 1024 * 1024, 1, 1024 * 1024 * 1024),
  /**
   * REST writes one process runs at once; the rest queue, and one that waited WRITE_QUEUE_MS is shed
   * with 503 + Retry-After (a burst is answered in time, part of it "come back", rather than all of it late).
   */
  WRITE_CONCURRENCY: int(16, 1, 1_000),
  WRITE_QUEUE_MS: int(1_000, 10, 60_000),
  /**
   * The longest the job runner's background lanes (mail, payouts, refunds, renewals, the coverage
   * lifecycle, sweeps — not webhooks) wait, before each kind, for this process to have no request under
   * way: under a burst the API gets the CPU first and that work catches up after (ms; 0: never wait).
   */
  JOBS_GIVE_WAY_MS: int(1_000, 0, 60_000),
  /** How long a SIGTERM waits for the requests in flight and the job attempts under way before closing anyway (ms). */
  SHUTDOWN_TIMEOUT_MS: int(10_000, 0, 600_000),
  /** How often each instance writes its metered API usage (ms); a crash loses at most this much. */
  METERING_FLUSH_MS: int(5_000, 50, 60_000),
  // UploadThing stores files when set (https://uploadthing.com → API keys); the local disk otherwise.
  UPLOADTHING_TOKEN: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  WEBHOOK_ALLOW_PRIVATE_URLS: bool(false),
  /** An endpoint whose every delivery failed for this long is disabled and its team told (default 3 days). */
  WEBHOOK_DISABLE_AFTER_HOURS: int(72, 1, 720),
  /** GET /events/stream: a heartbeat (and a read) this often, and at most this many streams per key per process. */
  EVENTS_STREAM_HEARTBEAT_MS: int(15_000, 200, 60_000),
  EVENTS_STREAM_PER_KEY: int(5, 1, 100),
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v) return [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400];
      const list = v.split(",").map((s) => Number(s.trim()));
      if (list.some((n) => !Number.isFinite(n) || n < 0)) {
        ctx.addIssue({ code: "custom", message: "must be comma-separated seconds, e.g. 1,2,5" });
        return z.NEVER;
      }
      return list;
    }),
  WEBHOOK_TIMEOUT_MS: int(10_000, 100, 60_000),
  // Run the job runner (webhooks, mail, payouts, reminders, sweeps) in this process; false where `npm run worker` runs it apart.
  WORKER: z
    .enum(["true", "false", "1", "0", ""])
    .optional()
    .transform((v) => (v === undefined || v === "" ? undefined : v === "true" || v === "1")),
  // Deprecated: the old name of WORKER, still obeyed when WORKER is unset.
  WEBHOOK_WORKER: z
    .enum(["true", "false", "1", "0", ""])
    .optional()
    .transform((v) => (v === undefined || v === "" ? undefined : v === "true" || v === "1")),
  // How long an instance trusts what it read of an API key (revocation, role and limit changes
  // made through another instance show within this; this instance forgets at once). 0: no cache.
  API_KEY_CACHE_MS: int(5_000, 0, 60_000),
  API_MAX_BODY_BYTES: int(1024 * 1024, 1024, 100 * 1024 * 1024),
  /** How long audit log entries are kept (days, at least 30): older ones are pruned once a day by the job runner. */
  AUDIT_RETENTION_DAYS: int(730, 30, 36_500),
  // Tests only: check every REST answer against its declared response schema (500 on a mismatch).
  VALIDATE_RESPONSES: bool(false),
});

export type Env = Omit<z.infer<typeof schema>, "WORKER"> & { APP_URL: string; DATA_DIR: string; WORKER: boolean };

function load(): Env {
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  if (e.PAYMENTS_PROVIDER === "paystack" && !e.PAYSTACK_SECRET_KEY) {
    throw new Error("Invalid environment:\n  PAYMENTS_PROVIDER: paystack needs PAYSTACK_SECRET_KEY");
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  return {
    ...e,
    DATA_DIR: e.DATA_DIR === "memory://" ? e.DATA_DIR : dataDir,
    APP_URL: appUrl,
    WORKER: e.WORKER ?? e.WEBHOOK_WORKER ?? true,
  };
}

// Without BETTER_AUTH_SECRET a laptop install keeps a generated secret in its
// data directory, so sessions survive restarts. A server (DATABASE_URL in
// production) must be given one: several instances must share it.
export function authSecret(): string {
  if (env.BETTER_AUTH_SECRET) return env.BETTER_AUTH_SECRET;
  if (env.DATABASE_URL && env.NODE_ENV === "production") {
    throw new Error("Invalid environment:\n  BETTER_AUTH_SECRET: required in production with DATABASE_URL");
  }
  if (env.DATA_DIR === "memory://") return "in-memory-database-development-secret";
  const file = path.join(env.DATA_DIR, "auth-secret");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(env.DATA_DIR, { recursive: true });
    const secret = crypto.randomBytes(32).toString("base64url");
    fs.writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
    return secret;
  }
}

const g = globalThis as unknown as { __coverdeskEnv?: Env };
export const env: Env = (g.__coverdeskEnv ??= load());
