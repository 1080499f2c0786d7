// Two-factor sign-in over HTTP (better-auth's twoFactor plugin under
// /api/auth/two-factor/*): enrolment confirmed by an authenticator code; a code
// of the previous, current or next 30 s step is accepted, an older one is not;
// a code is accepted once (replay); 5 wrong codes lock the second step; a
// backup code works once; a trusted device skips the code.
import { expect, request as playwrightRequest, test, type APIRequestContext } from "@playwright/test";
import { BASE_URL, signUp, type Account } from "../support/api";
import { awayFromStepEnd, keyOfUri, totpCode } from "../support/totp";

test.describe.configure({ mode: "serial" });

const newClient = () => playwrightRequest.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { Origin: BASE_URL } });

/** Turns two-factor on (not yet confirmed): the key and the backup codes. */
async function enable(account: Account) {
  const res = await account.session.post("/api/auth/two-factor/enable", { data: { password: account.password } });
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as { totpURI: string; backupCodes: string[] };
  expect(body.totpURI).toMatch(/^otpauth:\/\/totp\/Coverdesk:/);
  const uri = new URL(body.totpURI);
  expect(uri.searchParams.get("issuer")).toBe("Coverdesk");
  expect(uri.searchParams.get("digits")).toBe("6");
  expect(uri.searchParams.get("period")).toBe("30");
  expect(body.backupCodes).toHaveLength(10);
  return { key: keyOfUri(body.totpURI), backupCodes: body.backupCodes };
}

const verifyTotp = (client: APIRequestContext, code: string, trustDevice = false) =>
  client.post("/api/auth/two-factor/verify-totp", { data: { code, trustDevice } });

/** Email and password: the answer asks for the second step. */
async function passwordStep(account: Account, client?: APIRequestContext) {
  const c = client ?? (await newClient());
  const res = await c.post("/api/auth/sign-in/email", { data: { email: account.email, password: account.password } });
  expect(res.status()).toBe(200);
  return { client: c, body: (await res.json()) as { twoFactorRedirect?: boolean; twoFactorMethods?: string[]; token?: string } };
}

const signedIn = async (client: APIRequestContext) => {
  const res = await client.get("/api/auth/get-session");
  return ((await res.json()) as { user?: { twoFactorEnabled?: boolean } } | null)?.user ?? null;
};

async function enrolled(offset: number) {
  const account = await signUp({ name: "Two Factor" });
  const { key, backupCodes } = await enable(account);
  await awayFromStepEnd();
  const res = await verifyTotp(account.session, await totpCode(key, offset));
  return { account, key, backupCodes, res };
}

test("enrolment: codes of the previous, current and next step are accepted, an older one is not", async () => {
  test.setTimeout(120_000);
  // Not confirmed yet: signing in asks nothing.
  const fresh = await signUp({ name: "Not Yet" });
  await enable(fresh);
  expect((await passwordStep(fresh)).body.twoFactorRedirect).toBeUndefined();

  const older = await enrolled(-2);
  expect(older.res.status()).toBe(401);
  expect((await older.res.json()).code).toBe("INVALID_CODE");
  expect((await signedIn(older.account.session))?.twoFactorEnabled).toBe(false);

  for (const offset of [-1, 0, 1]) {
    const { account, res } = await enrolled(offset);
    expect(res.status(), `offset ${offset}: ${await res.text()}`).toBe(200);
    expect((await signedIn(account.session))?.twoFactorEnabled, `offset ${offset}`).toBe(true);
  }
});

test("sign-in: the code after the password; a code is accepted once; a trusted device skips the step", async () => {
  test.setTimeout(180_000);
  const { account, key, res } = await enrolled(0);
  expect(res.status()).toBe(200);

  // The same code again, while still in its window: refused.
  const again = await verifyTotp(account.session, await totpCode(key, 0));
  expect(again.status()).toBe(401);
  expect((await again.json()).code).toBe("CODE_ALREADY_USED");

  // Sign-in: no session until the code.
  const first = await passwordStep(account);
  expect(first.body).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp"] });
  expect(await signedIn(first.client)).toBeNull();
  // A fresh code without waiting up to 30 s for the next step: the next step's own code (accepted, as
  // the enrolment spec proves), unused so far.
  await awayFromStepEnd();
  const code = await totpCode(key, 1);
  const ok = await verifyTotp(first.client, code, true);
  expect(ok.status(), await ok.text()).toBe(200);
  expect((await signedIn(first.client))?.twoFactorEnabled).toBe(true);

  // The same code on another sign-in: refused, whatever device.
  const second = await passwordStep(account);
  const replay = await verifyTotp(second.client, code);
  expect(replay.status()).toBe(401);
  expect((await replay.json()).code).toBe("CODE_ALREADY_USED");
  expect(await signedIn(second.client)).toBeNull();

  // The trusted device (its cookie): signed in by the password alone.
  await first.client.post("/api/auth/sign-out");
  const trusted = await passwordStep(account, first.client);
  expect(trusted.body.twoFactorRedirect).toBeUndefined();
  expect(trusted.body.token).toBeTruthy();
  expect(await signedIn(first.client)).not.toBeNull();
});

test("5 wrong codes: the second step is locked, the right code too", async () => {
  test.setTimeout(120_000);
  const { account, key, res } = await enrolled(0);
  expect(res.status()).toBe(200);
  const { client } = await passwordStep(account);
  const right = await totpCode(key, 1);
  const wrong = right === "000000" ? "111111" : "000000";
  for (let i = 0; i < 5; i++) {
    const r = await verifyTotp(client, wrong);
    expect(r.status(), `wrong code ${i + 1}`).toBe(401);
    expect((await r.json()).code).toBe("INVALID_CODE");
  }
  const again = await passwordStep(account);
  const locked = await verifyTotp(again.client, right);
  expect(locked.status()).toBe(429);
  expect((await locked.json()).code).toBe("ACCOUNT_TEMPORARILY_LOCKED");
  expect(await signedIn(again.client)).toBeNull();
});

test("a backup code signs in once", async () => {
  test.setTimeout(120_000);
  const { account, backupCodes, res } = await enrolled(0);
  expect(res.status()).toBe(200);
  const [code, other] = backupCodes;

  const first = await passwordStep(account);
  const ok = await first.client.post("/api/auth/two-factor/verify-backup-code", { data: { code } });
  expect(ok.status(), await ok.text()).toBe(200);
  expect(await signedIn(first.client)).not.toBeNull();

  const second = await passwordStep(account);
  const reused = await second.client.post("/api/auth/two-factor/verify-backup-code", { data: { code } });
  expect(reused.status()).toBe(401);
  expect((await reused.json()).code).toBe("INVALID_BACKUP_CODE");
  expect(await signedIn(second.client)).toBeNull();
  const next = await second.client.post("/api/auth/two-factor/verify-backup-code", { data: { code: other } });
  expect(next.status()).toBe(200);
  expect(await signedIn(second.client)).not.toBeNull();
});
