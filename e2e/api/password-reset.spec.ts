// Forgot password over HTTP, through better-auth's own endpoints: the mailed
// link works once and for one account, signs every session out, and an
// unknown email is answered exactly like a known one without any mail.
// Changing the password signs the other sessions out.
import { expect, request as playwrightRequest, test, type APIRequestContext } from "@playwright/test";
import { BASE_URL, signUp, unique } from "../support/api";
import { mailboxOf, waitForMailbox } from "./_mail";

const CALLBACK = `${BASE_URL}/reset-password`;
const LINK = new RegExp(
  `${BASE_URL.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/api/auth/reset-password/([A-Za-z0-9_-]+)\\?callbackURL=${encodeURIComponent(CALLBACK).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`,
);

const anonymous = () => playwrightRequest.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { Origin: BASE_URL } });

async function requestReset(client: APIRequestContext, email: string) {
  const res = await client.post("/api/auth/request-password-reset", { data: { email } });
  return { status: res.status(), body: await res.json() };
}

const signIn = async (client: APIRequestContext, email: string, password: string) =>
  (await client.post("/api/auth/sign-in/email", { data: { email, password } })).status();

/** The user of the session the client's cookie names, or null. */
const sessionUser = async (client: APIRequestContext) =>
  ((await (await client.get("/api/auth/get-session")).json()) as { user?: { id: string } } | null)?.user?.id ?? null;

/** The one reset link mailed to `email` (waiting for it), and its token. */
async function mailedLink(email: string, count = 1) {
  const mails = await waitForMailbox(email, (m) => m.length >= count, `${count} password-reset email(s)`);
  expect(mails).toHaveLength(count);
  const mail = mails.at(-1)!;
  expect(mail.subject).toBe("Reset your Coverdesk password");
  const match = LINK.exec(mail.text);
  expect(match, mail.text).not.toBeNull();
  // The HTML button carries the same link.
  expect(mail.html).toContain(match![0].replace(/&/g, "&#38;"));
  expect(mail.text).toContain("expires in 60 minutes");
  return { link: match![0], token: match![1]! };
}

test("the mailed link works once: it sets the new password, signs every session out, and is refused the second time", async () => {
  const account = await signUp({ name: "Reset Owner" });
  const other = await anonymous();
  expect(await signIn(other, account.email, account.password)).toBe(200);
  expect(await sessionUser(account.session)).toBe(account.userId);
  expect(await sessionUser(other)).toBe(account.userId);

  const client = await anonymous();
  const asked = await requestReset(client, account.email);
  expect(asked).toEqual({
    status: 200,
    body: { status: true, message: "If this email exists in our system, check your email for the reset link" },
  });
  const { link, token } = await mailedLink(account.email);

  // better-auth's callback checks the token and hands it to the page.
  const opened = await client.get(link, { maxRedirects: 0 });
  expect(opened.status()).toBe(302);
  expect(opened.headers().location).toBe(`${CALLBACK}?token=${token}`);

  // A refused password does not use the token up.
  const short = await client.post("/api/auth/reset-password", { data: { token, newPassword: "short" } });
  expect(short.status()).toBe(400);
  expect((await short.json()).code).toBe("PASSWORD_TOO_SHORT");

  const first = await client.post("/api/auth/reset-password", { data: { token, newPassword: "brand-new-password-1" } });
  expect(first.status()).toBe(200);
  expect(await first.json()).toEqual({ status: true });

  // Every session of the account is gone.
  expect(await sessionUser(account.session)).toBeNull();
  expect(await sessionUser(other)).toBeNull();

  // The same link a second time: refused by the endpoint and by the callback.
  const second = await client.post("/api/auth/reset-password", { data: { token, newPassword: "another-password-2" } });
  expect(second.status()).toBe(400);
  expect((await second.json()).code).toBe("INVALID_TOKEN");
  const reopened = await client.get(link, { maxRedirects: 0 });
  expect(reopened.status()).toBe(302);
  expect(reopened.headers().location).toBe(`${CALLBACK}?error=INVALID_TOKEN`);

  expect(await signIn(client, account.email, account.password)).toBe(401);
  expect(await signIn(client, account.email, "another-password-2")).toBe(401);
  expect(await signIn(client, account.email, "brand-new-password-1")).toBe(200);
  await Promise.all([client.dispose(), other.dispose(), account.session.dispose()]);
});

test("an unknown email gets the known email's answer and no mail; a made-up token is refused", async () => {
  const account = await signUp();
  const client = await anonymous();
  const unknown = `nobody-${unique()}@example.test`;

  const forUnknown = await requestReset(client, unknown);
  // Any case of the address finds the account.
  const forKnown = await requestReset(client, account.email.toUpperCase());
  expect(forUnknown).toEqual(forKnown);
  expect(forUnknown.status).toBe(200);

  // The known address's mail arrives; by then the unknown one would have been written too.
  await mailedLink(account.email);
  expect(await mailboxOf(unknown)).toEqual([]);

  const made = await client.post("/api/auth/reset-password", {
    data: { token: "made-up-token-0123456789", newPassword: "brand-new-password-1" },
  });
  expect(made.status()).toBe(400);
  expect((await made.json()).code).toBe("INVALID_TOKEN");
  const opened = await client.get(
    `/api/auth/reset-password/made-up-token-0123456789?callbackURL=${encodeURIComponent(CALLBACK)}`,
    {
      maxRedirects: 0,
    },
  );
  expect(opened.status()).toBe(302);
  expect(opened.headers().location).toBe(`${CALLBACK}?error=INVALID_TOKEN`);

  // The account's password is untouched.
  expect(await signIn(client, account.email, account.password)).toBe(200);
  await Promise.all([client.dispose(), account.session.dispose()]);
});

test("changing the password needs the current one and signs the other sessions out, not this one", async () => {
  const account = await signUp();
  const other = await anonymous();
  expect(await signIn(other, account.email, account.password)).toBe(200);

  const wrong = await account.session.post("/api/auth/change-password", {
    data: { currentPassword: "not-the-password", newPassword: "brand-new-password-1", revokeOtherSessions: true },
  });
  expect(wrong.status()).toBe(400);
  expect((await wrong.json()).code).toBe("INVALID_PASSWORD");
  expect(await sessionUser(other)).toBe(account.userId);

  const changed = await account.session.post("/api/auth/change-password", {
    data: { currentPassword: account.password, newPassword: "brand-new-password-1", revokeOtherSessions: true },
  });
  expect(changed.status()).toBe(200);
  expect(await sessionUser(account.session)).toBe(account.userId);
  expect(await sessionUser(other)).toBeNull();

  expect(await signIn(other, account.email, account.password)).toBe(401);
  expect(await signIn(other, account.email, "brand-new-password-1")).toBe(200);
  await Promise.all([other.dispose(), account.session.dispose()]);
});
