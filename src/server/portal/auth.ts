// Signing in to a business's policyholder portal: no password, a one-time
// code sent to the email. The code is six digits, so it is stored as an HMAC
// under the server's secret (a copy of the table does not give it away),
// works once, for 10 minutes, and for 5 tries; asking for a new one ends the
// earlier ones. Asking is throttled per email and per IP (the TCP peer, or
// what TRUSTED_PROXIES say: src/server/client-ip.ts) in the store every
// instance shares, and the answer is the same whether or not the email has
// cover there (nobody learns who is insured by whom): the request does the
// same work for every email — the throttles and one mail task — and answers;
// the mail worker then decides, and sends a code only to an email that has a
// coverage at that business (composePortalCode).
//
// A correct code opens a session: a random token in an HttpOnly cookie, its
// SHA-256 in portal_session, bound to one organization and one email.
import crypto from "node:crypto";
import type { MailTask } from "@/generated/prisma/client";
import { db } from "@/server/db/client";
import { authSecret, env } from "@/server/env";
import { AppError, notFound } from "@/server/errors";
import { layoutEmail } from "@/server/integrations/email";
import type { Outgoing } from "@/server/mail/compose";
import { brandingOf } from "@/server/organizations/branding";
import { activeCounter, type WindowCounter } from "@/server/rest/rate-limit";

export const CODE_TTL_MS = 10 * 60_000;
export const CODE_MAX_ATTEMPTS = 5;
export const SESSION_TTL_MS = 12 * 3_600_000;
export const SESSION_COOKIE = "cd_portal";
/** Codes asked for one email at one business, and by one IP, per window. */
export const CODES_PER_EMAIL = 5;
export const CODES_PER_IP = 30;
export const SIGN_INS_PER_IP = 60;
const WINDOW_S = 15 * 60;

export const portalUrl = (organizationId: string, path = "") => `${env.APP_URL}/portal/${organizationId}${path}`;

const codeHash = (organizationId: string, email: string, code: string) =>
  crypto.createHmac("sha256", authSecret()).update(`portal-code:${organizationId}:${email}:${code}`).digest("hex");

export const tokenHash = (token: string) => crypto.createHash("sha256").update(token).digest("hex");

const digest = (s: string) => crypto.createHash("sha256").update(s).digest("hex").slice(0, 32);

async function throttle(counter: WindowCounter, key: string, max: number): Promise<void> {
  const now = Date.now() / 1000;
  const start = Math.floor(now / WINDOW_S) * WINDOW_S;
  const count = await counter(key, start, WINDOW_S, 1);
  if (count > max) {
    const retryAfter = Math.max(1, Math.ceil(start + WINDOW_S - now));
    throw new AppError("rate_limited", `Too many attempts. Try again in ${Math.ceil(retryAfter / 60)} minutes.`, {
      retryAfterSeconds: retryAfter,
    });
  }
}

/** The organization whose portal this is (live or test), or 404. */
export async function portalBusiness(organizationId: string) {
  if (!/^[\w-]{1,100}$/.test(organizationId)) throw notFound("Portal");
  const brand = await brandingOf(organizationId);
  if (!brand) throw notFound("Portal");
  return brand;
}

/** The mail task of a code request (src/server/mail/sender.ts hands it to composePortalCodeMail). */
export const PORTAL_CODE_MAIL = "portal_code";

/** Counted against an unknown peer's address (a request before the capture started): one shared bucket, never none. */
const UNKNOWN_IP = "unknown";

/**
 * Asks for a sign-in code for `email`. The same work for every email, whether
 * or not it has cover: the two throttles and one mail task of one shape (no
 * lookup of the email's cover, no code); the mail worker decides after the
 * answer. A timing of this request tells nothing about the email.
 */
export async function requestPortalCode(
  organizationId: string,
  email: string,
  ip: string | null,
  { counter = activeCounter(), via = "email" }: { counter?: WindowCounter; via?: "email" | "sms" } = {},
): Promise<void> {
  await portalBusiness(organizationId);
  await throttle(counter, `portal:code:${organizationId}:${digest(email)}`, CODES_PER_EMAIL);
  await throttle(counter, `portal:code-ip:${digest(ip ?? UNKNOWN_IP)}`, CODES_PER_IP);
  await db.mailTask.create({
    data: {
      organizationId,
      kind: PORTAL_CODE_MAIL,
      sourceId: crypto.randomUUID(),
      recipient: email,
      customerEmail: email,
      data: via === "sms" ? { via } : {},
    },
  });
}

/**
 * The worker's half of a code request: when the email has cover at the
 * business, a fresh code (ending the earlier ones) and its mail; otherwise —
 * or once the request is older than a code's life — null: nothing is sent
 * (the sender then deletes the task, so no trace of the email stays). A retry
 * after a failed send issues a new code.
 */
export async function composePortalCode(task: MailTask, now = new Date()): Promise<Outgoing | null> {
  const { organizationId } = task;
  // The email the code was asked for: the task's recipient, until an SMS send moved it to the phone.
  const email = task.customerEmail ?? task.recipient;
  if (now.getTime() - task.createdAt.getTime() > CODE_TTL_MS) return null;
  const business = await brandingOf(organizationId);
  if (!business) return null;
  const covered = await db.coverage.findFirst({ where: { organizationId, customerEmail: email }, select: { id: true } });
  if (!covered) return null;
  const code = crypto.randomInt(0, 1_000_000).toString().padStart(6, "0");
  await db.$transaction([
    db.portalCode.updateMany({ where: { organizationId, email, usedAt: null }, data: { usedAt: now } }),
    db.portalCode.create({
      data: {
        organizationId,
        email,
        codeHash: codeHash(organizationId, email, code),
        expiresAt: new Date(now.getTime() + CODE_TTL_MS),
      },
    }),
  ]);
  // Asked for by SMS and a phone is on file: the code goes there (whatever the business's SMS setting:
  // the policyholder asked for it), else by email.
  if ((task.data as { via?: unknown } | null)?.via === "sms") {
    const customer = await db.customer.findUnique({
      where: { organizationId_email: { organizationId, email } },
      select: { phone: true },
    });
    if (customer?.phone) {
      const body = `${business.livemode ? "" : "[Test] "}${code} is your ${business.name} sign-in code. It works once, for 10 minutes. Never share it.`;
      return { channel: "sms", sms: { to: customer.phone, body, kind: PORTAL_CODE_MAIL, livemode: business.livemode } };
    }
  }
  const mail = portalCodeMail({ business: business.name, code, link: portalUrl(organizationId), livemode: business.livemode });
  return { channel: "email", email: { to: email, onBehalfOf: business.name, ...mail } };
}

/** Pure: the words of the code mail. */
export function portalCodeMail(d: { business: string; code: string; link: string; livemode: boolean }) {
  return {
    subject: `${d.livemode ? "" : "[Test] "}${d.code} is your ${d.business} sign-in code`,
    ...layoutEmail({
      heading: `Your sign-in code: ${d.code}`,
      paragraphs: [
        `Enter this code on ${d.business}'s policyholder portal to see your cover, download certificates, renew and make claims.`,
        `The code works once, for 10 minutes. If you did not ask for it, ignore this email: nobody can sign in without the code.`,
      ],
      details: [{ label: "Code", value: d.code }],
      action: { label: "Open the portal", url: d.link },
      footer: `${d.business} uses Coverdesk for its policyholder portal. You receive this because a sign-in code was asked for this address.`,
    }),
  };
}

const wrongCode = () =>
  new AppError("validation_failed", "This code is wrong or has expired. Check the latest email, or ask for a new code.", {
    errors: [{ path: "code", message: "This code is wrong or has expired" }],
  });

/** Checks the code and opens a session; returns the cookie's token. */
export async function signInWithCode(
  organizationId: string,
  email: string,
  code: string,
  ip: string | null,
  { counter = activeCounter(), now = new Date() }: { counter?: WindowCounter; now?: Date } = {},
): Promise<{ token: string; expiresAt: Date }> {
  await portalBusiness(organizationId);
  await throttle(counter, `portal:sign-in-ip:${digest(ip ?? UNKNOWN_IP)}`, SIGN_INS_PER_IP);
  const outcome = await db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ id: string; codeHash: string; attempts: number }[]>`
      SELECT id, "codeHash", attempts FROM portal_code
      WHERE "organizationId" = ${organizationId} AND email = ${email} AND "usedAt" IS NULL AND "expiresAt" > ${now}
      ORDER BY "createdAt" DESC LIMIT 1 FOR UPDATE`;
    if (!row || row.attempts >= CODE_MAX_ATTEMPTS) return null;
    const expected = Buffer.from(row.codeHash, "hex");
    const given = Buffer.from(codeHash(organizationId, email, code), "hex");
    if (!crypto.timingSafeEqual(expected, given)) {
      // A wrong guess is counted (and commits); the fifth ends the code.
      await tx.portalCode.update({
        where: { id: row.id },
        data: { attempts: { increment: 1 }, ...(row.attempts + 1 >= CODE_MAX_ATTEMPTS ? { usedAt: now } : {}) },
      });
      return null;
    }
    await tx.portalCode.update({ where: { id: row.id }, data: { usedAt: now } });
    const token = crypto.randomBytes(32).toString("base64url");
    const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
    await tx.portalSession.create({ data: { organizationId, email, tokenHash: tokenHash(token), expiresAt } });
    return { token, expiresAt };
  });
  if (!outcome) throw wrongCode();
  return outcome;
}

export interface PortalSession {
  id: string;
  organizationId: string;
  email: string;
}

/** The session of this cookie token at this organization, or null. */
export async function portalSession(
  organizationId: string,
  token: string | undefined,
  now = new Date(),
): Promise<PortalSession | null> {
  if (!token || token.length > 200) return null;
  const row = await db.portalSession.findUnique({ where: { tokenHash: tokenHash(token) } });
  if (!row || row.organizationId !== organizationId || row.expiresAt <= now) return null;
  return { id: row.id, organizationId: row.organizationId, email: row.email };
}

export async function signOutPortal(token: string | undefined): Promise<void> {
  if (!token || token.length > 200) return;
  await db.portalSession.deleteMany({ where: { tokenHash: tokenHash(token) } });
}
