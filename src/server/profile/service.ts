// A dashboard user's own account: their name, and the devices signed in to it
// (better-auth's sessions: browser and system read from the user agent, the
// address and the last activity) — each can be signed out, or every one but
// this one. Always the caller's own: another user's session is not found.
import Bowser from "bowser";
import type { Device, DeviceList, Profile, UpdateProfileInput } from "@/lib/schemas/profile";
import { db } from "@/server/db/client";
import { notFound } from "@/server/errors";
import type { SessionUser } from "@/server/operations/auth";

export async function getProfile(user: SessionUser): Promise<Profile> {
  const row = await db.user.findUniqueOrThrow({ where: { id: user.id }, select: { name: true, email: true } });
  return row;
}

export async function updateProfile(user: SessionUser, input: UpdateProfileInput): Promise<Profile> {
  return db.user.update({ where: { id: user.id }, data: { name: input.name }, select: { name: true, email: true } });
}

/** "Chrome 131 on macOS", from a user agent; "Unknown device" without one. */
export function describeAgent(userAgent: string | null): { browser: string; system: string } {
  if (!userAgent) return { browser: "Unknown browser", system: "unknown system" };
  const parsed = Bowser.parse(userAgent);
  const major = parsed.browser.version?.split(".")[0];
  const browser = parsed.browser.name ? `${parsed.browser.name}${major ? ` ${major}` : ""}` : "Unknown browser";
  const system = parsed.os.name ? `${parsed.os.name}${parsed.os.versionName ? ` ${parsed.os.versionName}` : ""}` : "unknown system";
  return { browser, system };
}

const toDevice = (
  row: { id: string; userAgent: string | null; ipAddress: string | null; createdAt: Date; updatedAt: Date },
  currentId: string | undefined,
): Device => ({
  id: row.id,
  ...describeAgent(row.userAgent),
  ipAddress: row.ipAddress,
  signedInAt: row.createdAt.toISOString(),
  lastActiveAt: row.updatedAt.toISOString(),
  current: row.id === currentId,
});

/** The caller's sessions that have not expired, this one first, then the most recently active. */
export async function listDevices(user: SessionUser, now = new Date()): Promise<DeviceList> {
  const rows = await db.session.findMany({
    where: { userId: user.id, expiresAt: { gt: now } },
    orderBy: [{ updatedAt: "desc" }, { id: "asc" }],
    // A person's devices: a few; the bound keeps a scripted sign-in loop from making the page huge.
    take: 100,
    select: { id: true, userAgent: true, ipAddress: true, createdAt: true, updatedAt: true },
  });
  const devices = rows.map((r) => toDevice(r, user.sessionId));
  devices.sort((a, b) => Number(b.current) - Number(a.current));
  return { data: devices };
}

/** Signs one of the caller's devices out (this one too: that is signing out). */
export async function revokeDevice(user: SessionUser, id: string): Promise<DeviceList> {
  const { count } = await db.session.deleteMany({ where: { id, userId: user.id } });
  if (count === 0) throw notFound("Device");
  return listDevices(user);
}

/** Signs every other device out; this one stays. */
export async function revokeOtherDevices(user: SessionUser): Promise<DeviceList> {
  await db.session.deleteMany({ where: { userId: user.id, ...(user.sessionId ? { id: { not: user.sessionId } } : {}) } });
  return listDevices(user);
}
