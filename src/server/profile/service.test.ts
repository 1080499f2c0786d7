// A user's own profile and devices, on the real database: sessions as
// better-auth writes them; another user's device is never theirs to see or end.
import { describe, expect, it } from "vitest";
import { UpdateProfileInput } from "@/lib/schemas/profile";
import { db } from "@/server/db/client";
import type { SessionUser } from "@/server/operations/auth";
import { codeOf, createUser, unique } from "@/test/fixtures";
import { describeAgent, getProfile, listDevices, revokeDevice, revokeOtherDevices, updateProfile } from "./service";

const CHROME_MAC =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

async function session(userId: string, userAgent: string | null, ip: string, { expired = false } = {}) {
  const id = `ses_${unique()}`;
  await db.session.create({
    data: {
      id,
      token: `tok_${unique()}`,
      userId,
      userAgent,
      ipAddress: ip,
      expiresAt: new Date(Date.now() + (expired ? -1 : 1) * 86_400_000),
    },
  });
  return id;
}

async function userWithDevices() {
  const row = await createUser("Ada Obi");
  const here = await session(row.id, CHROME_MAC, "203.0.113.5");
  const phone = await session(row.id, SAFARI_IPHONE, "198.51.100.7");
  await session(row.id, CHROME_MAC, "203.0.113.9", { expired: true });
  const user = { ...row, sessionId: here } as unknown as SessionUser;
  return { user, here, phone };
}

describe("profile", () => {
  it("reads and renames the caller only", async () => {
    const { user } = await userWithDevices();
    expect(await getProfile(user)).toEqual({ name: "Ada Obi", email: user.email });
    expect(await updateProfile(user, UpdateProfileInput.parse({ name: "  Adaeze Obi " }))).toEqual({ name: "Adaeze Obi", email: user.email });
    expect(UpdateProfileInput.safeParse({ name: " " }).success).toBe(false);
  });

  it("names each device by browser and system", () => {
    expect(describeAgent(CHROME_MAC)).toEqual({ browser: "Chrome 131", system: "macOS Catalina" });
    expect(describeAgent(SAFARI_IPHONE).browser).toBe("Safari 17");
    expect(describeAgent(SAFARI_IPHONE).system).toMatch(/^iOS/);
    expect(describeAgent(null)).toEqual({ browser: "Unknown browser", system: "unknown system" });
  });

  it("lists the live sessions, this one first; ends one, or all the others; another user's is not found", async () => {
    const { user, here, phone } = await userWithDevices();
    const other = await userWithDevices();
    const listed = await listDevices(user);
    expect(listed.data.map((d) => [d.id, d.current])).toEqual([
      [here, true],
      [phone, false],
    ]);
    expect(listed.data[1]).toMatchObject({ ipAddress: "198.51.100.7", browser: "Safari 17" });

    expect(await codeOf(revokeDevice(user, other.phone))).toBe("not_found");
    expect(await db.session.count({ where: { id: other.phone } })).toBe(1);

    expect((await revokeDevice(user, phone)).data.map((d) => d.id)).toEqual([here]);
    await session(user.id, SAFARI_IPHONE, "198.51.100.8");
    expect((await revokeOtherDevices(user)).data.map((d) => d.id)).toEqual([here]);
    expect((await listDevices(other.user)).data).toHaveLength(2);
  });
});
