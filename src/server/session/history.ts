// A dashboard user's sign-in history: each success (a session made) and each
// refused password or two-factor code of their account, with the address and
// device; and the email a sign-in from a new device sends them. Written by
// better-auth's hooks (src/server/auth.ts); never fails a sign-in (a failure
// here is logged, the sign-in goes on).
import type { SignInList } from "@/lib/schemas/profile";
import { db } from "@/server/db/client";
import { logger } from "@/server/logger";
import { describeAgent } from "@/server/profile/service";

/** How far back a device counts as known. */
const KNOWN_DEVICE_DAYS = 90;

const sameDevice = (a: string | null, b: string | null) => {
  const x = describeAgent(a);
  const y = describeAgent(b);
  return x.browser.split(" ")[0] === y.browser.split(" ")[0] && x.system.split(" ")[0] === y.system.split(" ")[0];
};

/** A session was made: the success, and the mail when it came from a device not seen in 90 days (never at the first one). */
export async function recordSignIn(userId: string, ipAddress: string | null, userAgent: string | null, now = new Date()): Promise<void> {
  try {
    const since = new Date(now.getTime() - KNOWN_DEVICE_DAYS * 86_400_000);
    const earlier = await db.signInEvent.findMany({
      where: { userId, success: true, createdAt: { gte: since } },
      orderBy: { createdAt: "desc" },
      take: 50,
      select: { userAgent: true },
    });
    await db.signInEvent.create({ data: { userId, success: true, ipAddress, userAgent, createdAt: now } });
    if (earlier.length === 0 || earlier.some((e) => sameDevice(e.userAgent, userAgent))) return;
    const user = await db.user.findUnique({
      where: { id: userId },
      select: { email: true, activeOrganizationId: true, memberships: { select: { organizationId: true }, take: 1 } },
    });
    const organizationId = user?.activeOrganizationId ?? user?.memberships[0]?.organizationId;
    if (!user || !organizationId) return;
    const device = describeAgent(userAgent);
    await db.mailTask.create({
      data: {
        organizationId,
        kind: "new_sign_in",
        sourceId: `sign-in:${userId}:${now.toISOString()}`,
        recipient: user.email.toLowerCase(),
        data: { browser: device.browser, system: device.system, ipAddress, at: now.toISOString() },
      },
    });
  } catch (err) {
    logger.error({ err, userId }, "could not record a sign-in");
  }
}

/** A refused password or code of a known account (an unknown email leaves no trace). */
export async function recordFailedSignIn(
  who: { userId?: string | null; email?: string | null },
  reason: "wrong_password" | "wrong_code",
  ipAddress: string | null,
  userAgent: string | null,
): Promise<void> {
  try {
    const userId =
      who.userId ??
      (who.email
        ? (await db.user.findUnique({ where: { email: who.email.trim().toLowerCase() }, select: { id: true } }))?.id
        : undefined);
    if (!userId) return;
    await db.signInEvent.create({ data: { userId, success: false, reason, ipAddress, userAgent } });
  } catch (err) {
    logger.error({ err }, "could not record a failed sign-in");
  }
}

/** The user's newest sign-ins, successes and failures (at most 50). */
export async function listSignIns(userId: string): Promise<SignInList> {
  const rows = await db.signInEvent.findMany({
    where: { userId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 50,
  });
  return {
    data: rows.map((r) => ({
      id: r.id,
      success: r.success,
      reason: r.reason as "wrong_password" | "wrong_code" | null,
      ...describeAgent(r.userAgent),
      ipAddress: r.ipAddress,
      at: r.createdAt.toISOString(),
    })),
  };
}
