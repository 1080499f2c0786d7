// Recent authentication and the two-factor requirement, on the real database:
// sessions as better-auth writes them, passwords hashed as sign-up hashes them,
// authenticator secrets and backup codes encrypted as the plugin stores them.
import { symmetricEncrypt } from "better-auth/crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/server/db/client";
import { hashPassword } from "@/server/password";
import { setTwoFactorRequirement, twoFactorRequirement } from "@/server/organizations/two-factor-requirement";
import { addMember, codeOf, ownerWithOrganization, unique } from "@/test/fixtures";
import { assertRecentAuth, authenticatedAt, reauthenticate, RECENT_AUTH_S } from "./recent-auth";
import { hotp, totpStepAt, TWO_FACTOR_MAX_FAILURES, twoFactorKey } from "./two-factor";

const PASSWORD = "correct-horse-battery";

async function signedIn(userId: string, email: string, { ageS = 0 } = {}) {
  await db.account.upsert({
    where: { id: `acc_${userId}` },
    create: { id: `acc_${userId}`, accountId: userId, providerId: "credential", userId, password: await hashPassword(PASSWORD) },
    update: {},
  });
  const sessionId = `ses_${unique()}`;
  await db.session.create({
    data: {
      id: sessionId,
      token: `tok_${unique()}`,
      userId,
      createdAt: new Date(Date.now() - ageS * 1000),
      expiresAt: new Date(Date.now() + 86_400_000),
    },
  });
  return { id: userId, email, sessionId };
}

/** Two-factor on, with the secret and backup codes encrypted as the plugin keeps them. */
async function withTwoFactor(userId: string) {
  const key = await twoFactorKey();
  const secret = `secret-${unique()}`;
  const backupCodes = ["AAAAA-11111", "BBBBB-22222"];
  await db.twoFactor.create({
    data: {
      id: `tf_${unique()}`,
      userId,
      secret: await symmetricEncrypt({ key, data: secret }),
      backupCodes: await symmetricEncrypt({ key, data: JSON.stringify(backupCodes) }),
    },
  });
  await db.user.update({ where: { id: userId }, data: { twoFactorEnabled: true } });
  return { code: (offset = 0) => hotp(secret, totpStepAt(Date.now()) + offset), backupCodes };
}

describe("recent authentication", () => {
  it("a session signed in within 10 minutes passes; an older one is refused until the password is confirmed", async () => {
    const { user } = await ownerWithOrganization();
    const fresh = await signedIn(user.id, user.email);
    await expect(assertRecentAuth(fresh)).resolves.toBeUndefined();

    const old = await signedIn(user.id, user.email, { ageS: RECENT_AUTH_S + 5 });
    expect(await codeOf(assertRecentAuth(old))).toBe("reauthentication_required");
    // Another session of the same user confirming does not make this one fresh.
    await reauthenticate(fresh, { password: PASSWORD });
    expect(await codeOf(assertRecentAuth(old))).toBe("reauthentication_required");

    expect(await codeOf(reauthenticate(old, { password: "wrong-password" }))).toBe("validation_failed");
    expect(await codeOf(assertRecentAuth(old))).toBe("reauthentication_required");
    const { validUntil } = await reauthenticate(old, { password: PASSWORD });
    expect(validUntil.getTime()).toBeGreaterThan(Date.now() + (RECENT_AUTH_S - 5) * 1000);
    await expect(assertRecentAuth(old)).resolves.toBeUndefined();
    // …for 10 minutes.
    expect(await codeOf(assertRecentAuth(old, Date.now() + (RECENT_AUTH_S + 1) * 1000))).toBe("reauthentication_required");
    expect((await authenticatedAt(old.sessionId))!.getTime()).toBeGreaterThan(Date.now() - 5_000);
    // No session at all: refused.
    expect(await codeOf(assertRecentAuth({ id: user.id, email: user.email }))).toBe("reauthentication_required");
  });

  it("wrong passwords count toward the account's sign-in limit: past 10, the right one is refused too", async () => {
    const { user } = await ownerWithOrganization();
    const old = await signedIn(user.id, user.email, { ageS: RECENT_AUTH_S + 5 });
    for (let i = 0; i < 10; i++) expect(await codeOf(reauthenticate(old, { password: `wrong-${i}` }))).toBe("validation_failed");
    expect(await codeOf(reauthenticate(old, { password: PASSWORD }))).toBe("rate_limited");
    expect(await codeOf(assertRecentAuth(old))).toBe("reauthentication_required");
  });

  it("a two-factor code confirms once; a backup code is used up; 5 wrong codes lock codes here and at sign-in", async () => {
    const { user } = await ownerWithOrganization();
    const old = await signedIn(user.id, user.email, { ageS: RECENT_AUTH_S + 5 });
    // Without two-factor, a code is no way in.
    expect(await codeOf(reauthenticate(old, { code: "123456" }))).toBe("validation_failed");

    const tf = await withTwoFactor(user.id);
    const code = tf.code();
    await reauthenticate(old, { code });
    await expect(assertRecentAuth(old)).resolves.toBeUndefined();
    // The same code again (replay): refused, and not counted as a guess.
    const replay = await reauthenticate(old, { code }).catch((e: { extra: { errors: { message: string }[] } }) => e);
    expect((replay as { code?: string }).code).toBe("validation_failed");
    expect((replay as { extra: { errors: { message: string }[] } }).extra.errors[0]!.message).toMatch(/already used/);

    await reauthenticate(old, { code: tf.backupCodes[0]! });
    expect(await codeOf(reauthenticate(old, { code: tf.backupCodes[0]! }))).toBe("validation_failed");

    const wrong = tf.code(1) === "000000" ? "111111" : "000000";
    // The used backup code counted as one wrong code (it is one now): 3 more, then the 5th locks.
    for (let i = 0; i < TWO_FACTOR_MAX_FAILURES - 2; i++) expect(await codeOf(reauthenticate(old, { code: wrong }))).toBe("validation_failed");
    expect(await codeOf(reauthenticate(old, { code: wrong }))).toBe("rate_limited");
    // Locked: the right code too, and the sign-in's second step reads the same lock.
    expect(await codeOf(reauthenticate(old, { code: tf.backupCodes[1]! }))).toBe("rate_limited");
    const row = await db.twoFactor.findUniqueOrThrow({ where: { userId: user.id } });
    expect(row.lockedUntil!.getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);
  });
});

describe("the organization's two-factor requirement", () => {
  it("only the owner changes it, only with two-factor on their own account, and it is audited once per change", async () => {
    const { user, org, actor } = await ownerWithOrganization();
    const admin = await addMember(org.id, "ADMIN");
    expect(await codeOf(setTwoFactorRequirement(admin.actor, true))).toBe("forbidden");
    expect(await codeOf(setTwoFactorRequirement({ ...actor, apiKey: { id: "k", permissions: ["read", "write"] } }, true))).toBe(
      "forbidden",
    );
    expect(await codeOf(setTwoFactorRequirement(actor, true))).toBe("invalid_state");
    expect((await db.organization.findUniqueOrThrow({ where: { id: org.id } })).requireTwoFactor).toBe(false);

    await withTwoFactor(user.id);
    const on = await setTwoFactorRequirement(actor, true);
    expect(on).toMatchObject({ required: true, members: 2, membersWithout: 1, youHaveIt: true, canChange: true });
    await setTwoFactorRequirement(actor, true); // no change: no entry
    expect(await twoFactorRequirement(admin.actor)).toMatchObject({ required: true, canChange: false });
    const entries = await db.auditLog.findMany({ where: { organizationId: org.id, action: "organization.two_factor_requirement_changed" } });
    expect(entries).toHaveLength(1);
    expect(entries[0]!.details).toEqual({ before: { requireTwoFactor: false }, after: { requireTwoFactor: true } });
  });
});
