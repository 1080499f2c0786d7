// The phone on a dashboard user's profile, where the team's SMS notices go:
// used only once verified by a 6-digit code sent to it. The code is made when
// the SMS is sent (no secret waits in the outbox), kept as an HMAC under the
// server's secret, works once, for 10 minutes and 5 tries; a new request ends
// the earlier code. Requests are throttled per user.
import crypto from "node:crypto";
import type { MailTask } from "@/generated/prisma/client";
import type { ProfilePhone } from "@/lib/schemas/notifications";
import { db } from "@/server/db/client";
import { authSecret } from "@/server/env";
import { AppError, validationError } from "@/server/errors";
import type { Outgoing } from "@/server/mail/compose";
import { MAIL_DATA } from "@/server/mail/kinds";
import { phoneOf } from "@/server/phone";
import { activeCounter } from "@/server/rest/rate-limit";

const CODE_TTL_MS = 10 * 60_000;
const MAX_TRIES = 5;
const CODES_PER_HOUR = 5;

const codeHash = (userId: string, phone: string, code: string) =>
  crypto.createHmac("sha256", authSecret()).update(`phone-code:${userId}:${phone}:${code}`).digest("hex");

const toProfilePhone = (u: { phone: string | null; phoneVerifiedAt: Date | null; pendingPhone: string | null }): ProfilePhone => ({
  phone: u.phone && u.phoneVerifiedAt ? u.phone : null,
  pendingPhone: u.pendingPhone,
});

const SELECT = { phone: true, phoneVerifiedAt: true, pendingPhone: true } as const;

export async function profilePhone(userId: string): Promise<ProfilePhone> {
  return toProfilePhone(await db.user.findUniqueOrThrow({ where: { id: userId }, select: SELECT }));
}

/** Sends a code to `phone` (read in the user's business's country); the phone is used once the code is entered. */
export async function startPhoneVerification(userId: string, text: string): Promise<ProfilePhone> {
  const user = await db.user.findUniqueOrThrow({
    where: { id: userId },
    select: { activeOrganizationId: true, memberships: { select: { organizationId: true }, take: 1 } },
  });
  const organizationId = user.activeOrganizationId ?? user.memberships[0]?.organizationId;
  if (!organizationId) throw new AppError("conflict", "Create or join a business first: its SMS notices go to this phone");
  const org = await db.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { currency: true } });
  const phone = phoneOf(text, org.currency, "phone");
  const now = Date.now() / 1000;
  const start = Math.floor(now / 3600) * 3600;
  if ((await activeCounter()(`phone-code:${userId}`, start, 3600, 1)) > CODES_PER_HOUR) {
    throw new AppError("rate_limited", "Too many codes asked for. Try again within the hour.", {
      retryAfterSeconds: Math.max(1, Math.ceil(start + 3600 - now)),
    });
  }
  const updated = await db.$transaction(async (tx) => {
    const row = await tx.user.update({
      where: { id: userId },
      data: { pendingPhone: phone, phoneCodeHash: null, phoneCodeExpiresAt: null, phoneCodeAttempts: 0 },
      select: SELECT,
    });
    await tx.mailTask.create({
      data: { organizationId, kind: "phone_code", channel: "sms", sourceId: crypto.randomUUID(), recipient: phone, data: { userId } },
    });
    return row;
  });
  return toProfilePhone(updated);
}

/** The sender's half: a fresh code for the phone still being verified; null when another phone was asked for since. */
export async function composePhoneCode(task: MailTask, now = new Date()): Promise<Outgoing | null> {
  const { userId } = MAIL_DATA.phone_code.parse(task.data);
  if (now.getTime() - task.createdAt.getTime() > CODE_TTL_MS) return null;
  const user = await db.user.findUnique({ where: { id: userId }, select: { pendingPhone: true } });
  if (!user || user.pendingPhone !== task.recipient) return null;
  const code = crypto.randomInt(0, 1_000_000).toString().padStart(6, "0");
  await db.user.updateMany({
    where: { id: userId, pendingPhone: task.recipient },
    data: {
      phoneCodeHash: codeHash(userId, task.recipient, code),
      phoneCodeExpiresAt: new Date(now.getTime() + CODE_TTL_MS),
      phoneCodeAttempts: 0,
    },
  });
  return {
    channel: "sms",
    sms: {
      to: task.recipient,
      body: `${code} is your Coverdesk code to verify this phone. It works for 10 minutes. Never share it.`,
      kind: "phone_code",
      livemode: true,
    },
  };
}

const wrongCode = () => validationError([{ path: "code", message: "This code is wrong or has expired. Ask for a new one." }]);

export async function verifyPhone(userId: string, code: string, now = new Date()): Promise<ProfilePhone> {
  // One statement counts the try: concurrent guesses cannot share one.
  const [row] = await db.$queryRaw<{ pendingPhone: string | null; phoneCodeHash: string | null; phoneCodeExpiresAt: Date | null }[]>`
    UPDATE "user" SET "phoneCodeAttempts" = "phoneCodeAttempts" + 1
    WHERE id = ${userId} AND "pendingPhone" IS NOT NULL AND "phoneCodeAttempts" < ${MAX_TRIES}
    RETURNING "pendingPhone", "phoneCodeHash", "phoneCodeExpiresAt"`;
  if (!row?.pendingPhone || !row.phoneCodeHash || !row.phoneCodeExpiresAt || row.phoneCodeExpiresAt < now) throw wrongCode();
  const expected = Buffer.from(row.phoneCodeHash, "hex");
  const given = Buffer.from(codeHash(userId, row.pendingPhone, code), "hex");
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) throw wrongCode();
  const updated = await db.user.update({
    where: { id: userId },
    data: {
      phone: row.pendingPhone,
      phoneVerifiedAt: now,
      pendingPhone: null,
      phoneCodeHash: null,
      phoneCodeExpiresAt: null,
      phoneCodeAttempts: 0,
    },
    select: SELECT,
  });
  return toProfilePhone(updated);
}

export async function removePhone(userId: string): Promise<ProfilePhone> {
  const row = await db.user.update({
    where: { id: userId },
    data: { phone: null, phoneVerifiedAt: null, pendingPhone: null, phoneCodeHash: null, phoneCodeExpiresAt: null, phoneCodeAttempts: 0 },
    select: SELECT,
  });
  return toProfilePhone(row);
}
