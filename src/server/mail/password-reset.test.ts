import { hashPassword, verifyPassword } from "@/server/password";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getAuth } from "@/server/auth";
import { db } from "@/server/db/client";
import { env } from "@/server/env";
import { sendEmail, type Email } from "@/server/integrations/email";
import { createUser, unique } from "@/test/fixtures";
import { passwordReset, passwordResetLink } from "./password-reset";

vi.mock("@/server/integrations/email", async (original) => ({
  ...(await original<typeof import("@/server/integrations/email")>()),
  sendEmail: vi.fn(async () => {}),
}));
const sent = vi.mocked(sendEmail);

/** A user with a password, and one session of theirs. */
async function userWithPassword(password = "old-password-123") {
  const user = await createUser("Reset Tester");
  await db.account.create({
    data: {
      id: `acc_${unique()}`,
      accountId: user.id,
      providerId: "credential",
      userId: user.id,
      password: await hashPassword(password),
    },
  });
  await db.session.create({
    data: { id: `ses_${unique()}`, token: `tok_${unique()}`, userId: user.id, expiresAt: new Date(Date.now() + 86_400_000) },
  });
  return user;
}

/** The token of the reset mail sent to `email` (the mock is called in the background). */
async function mailedToken(email: string): Promise<string> {
  await vi.waitFor(() => expect(sent.mock.calls.some(([m]) => m.to === email)).toBe(true));
  const mail = sent.mock.calls.map(([m]) => m as Email).find((m) => m.to === email)!;
  const token = /\/api\/auth\/reset-password\/([^?]+)\?/.exec(mail.link ?? "")?.[1];
  expect(token).toBeTruthy();
  return decodeURIComponent(token!);
}

const reset = (token: string, newPassword: string) =>
  getAuth()
    .api.resetPassword({ body: { token, newPassword } })
    .then(
      () => "ok",
      (err: { body?: { code?: string } }) => err.body?.code ?? "error",
    );

describe("password-reset mail", () => {
  it("escapes the name, carries the link in text and button, and says how long it works", () => {
    const link = passwordResetLink("abc_DEF-123");
    expect(link).toBe(
      `${env.APP_URL}/api/auth/reset-password/abc_DEF-123?callbackURL=${encodeURIComponent(`${env.APP_URL}/reset-password`)}`,
    );
    const mail = passwordReset({ name: `<b>Ada</b>`, email: "ada@example.test", link, expiresInMinutes: 60 });
    expect(mail.subject).toBe("Reset your Coverdesk password");
    expect(mail.link).toBe(link);
    expect(mail.html).not.toContain("<b>Ada</b>");
    expect(mail.html).toContain("&#60;b&#62;Ada&#60;/b&#62;");
    expect(mail.html).toContain(`<a href="${link}"`);
    expect(mail.text).toContain(`Choose a new password: ${link}`);
    expect(mail.text).toContain("expires in 60 minutes");
    expect(mail.text).toContain("ada@example.test");
  });
});

describe("better-auth's reset flow as configured", () => {
  beforeEach(() => sent.mockClear());
  afterEach(() => vi.useRealTimers());

  it("mails nothing for an unknown email, and answers it like a known one", async () => {
    const user = await userWithPassword();
    const unknown = await getAuth().api.requestPasswordReset({ body: { email: `nobody-${unique()}@example.test` } });
    const known = await getAuth().api.requestPasswordReset({ body: { email: user.email } });
    expect(unknown).toEqual(known);
    await mailedToken(user.email);
    expect(sent).toHaveBeenCalledTimes(1);
    expect(sent.mock.calls[0]![0].to).toBe(user.email);
  });

  it("keeps the token hashed, sets the password once, signs every session out and voids the older links", async () => {
    const user = await userWithPassword();
    await getAuth().api.requestPasswordReset({ body: { email: user.email } });
    const older = await mailedToken(user.email);
    sent.mockClear();
    await getAuth().api.requestPasswordReset({ body: { email: user.email } });
    const token = await mailedToken(user.email);
    expect(token).not.toBe(older);
    const rows = await db.verification.findMany({ where: { value: user.id } });
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.identifier).toMatch(/^reset-password:[A-Za-z0-9_-]{43}$/);
      expect([`reset-password:${token}`, `reset-password:${older}`]).not.toContain(row.identifier);
    }

    expect(await reset(token, "new-password-456")).toBe("ok");
    expect(await db.session.count({ where: { userId: user.id } })).toBe(0);
    const account = await db.account.findFirstOrThrow({ where: { userId: user.id, providerId: "credential" } });
    expect(await verifyPassword({ hash: account.password!, password: "new-password-456" })).toBe(true);
    expect(await reset(token, "third-password-789")).toBe("INVALID_TOKEN");
    expect(await reset(older, "third-password-789")).toBe("INVALID_TOKEN");
    expect(await db.verification.count({ where: { value: user.id } })).toBe(0);
  });

  it("works for an hour, not longer", async () => {
    const [late, inTime] = [await userWithPassword(), await userWithPassword()];
    const start = Date.now();
    await getAuth().api.requestPasswordReset({ body: { email: late.email } });
    await getAuth().api.requestPasswordReset({ body: { email: inTime.email } });
    const [lateToken, inTimeToken] = [await mailedToken(late.email), await mailedToken(inTime.email)];

    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(start + 59 * 60_000);
    expect(await reset(inTimeToken, "new-password-456")).toBe("ok");
    // (Later, not earlier: a lookup past the hour also clears expired rows.)
    vi.setSystemTime(start + 61 * 60_000);
    expect(await reset(lateToken, "new-password-456")).toBe("INVALID_TOKEN");
  });
});
