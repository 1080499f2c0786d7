// Account security over HTTP: recent authentication (a session older than 10
// minutes is asked for the password or a code again before a money move, a
// key, a role change…) over tRPC and over the dashboard's upload route, never
// for an API key; the organization's two-factor requirement; turning
// two-factor off with the password and a code checked by the server.
// PostgreSQL run only: "signed in 11 minutes ago" is set in SQL (support/db.ts).
import { expect, request, test, type APIRequestContext } from "@playwright/test";
import { BASE_URL, problem, restClient, unique } from "../support/api";
import { ageSessions, onPostgres } from "../support/db";
import { awayFromStepEnd, enrolTwoFactor, totpCode } from "../support/totp";
import { pdfPart, pngPart } from "./_files";
import { joinTeam, listAll, ok, tenantWithClients, trpc, trpcError } from "./_helpers";

test.skip(!onPostgres, "sessions are aged in SQL: PostgreSQL run only");

const enrol = enrolTwoFactor;

const keyCount = async (read: APIRequestContext) => (await listAll(read, "business/api-keys")).length;

test("over tRPC: an old session is asked again before a key is made, nothing is made; a key over REST is never asked and the audit log names it", async () => {
  const t = await tenantWithClients();
  const keysBefore = await keyCount(t.read);
  await ageSessions(t.account.userId);

  const input = { name: `late-${unique()}`, permissions: ["read"], mode: "live" };
  expect(await trpcError(t.account, "apiKeys.create", input)).toMatchObject({ status: 403, code: "reauthentication_required" });
  expect(await keyCount(t.read)).toBe(keysBefore);
  // Reading is never asked.
  await trpc(t.account, "apiKeys.list", { limit: 10 }, "query");

  // Confirming: bad input, a wrong password (a field error), then the right one.
  expect(await trpcError(t.account, "profile.reauthenticate", {})).toMatchObject({ status: 400, code: "validation_failed" });
  const wrong = await trpcError(t.account, "profile.reauthenticate", { password: "not-my-password" });
  expect(wrong).toMatchObject({ status: 422, code: "validation_failed" });
  expect(await trpcError(t.account, "apiKeys.create", input)).toMatchObject({ code: "reauthentication_required" });
  const confirmed = await trpc<{ validUntil: string }>(t.account, "profile.reauthenticate", { password: t.account.password });
  expect(new Date(confirmed.validUntil).getTime()).toBeGreaterThan(Date.now() + 9 * 60_000);
  await trpc(t.account, "apiKeys.create", input);
  expect(await keyCount(t.read)).toBe(keysBefore + 1);

  // Without a session: 401.
  const anonymous = await request.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { Origin: BASE_URL } });
  const unauthenticated = await anonymous.post("/api/trpc/profile.reauthenticate", { data: { json: { password: "x" } } });
  expect(unauthenticated.status()).toBe(401);
  await anonymous.dispose();

  // A key is a machine credential: never asked, and the log names it.
  const viaKey = await ok(
    await t.write.post("business/api-keys", { data: { name: `machine-${unique()}`, permissions: ["read"] } }),
    201,
  );
  const entries = await ok(await t.read.get(`business/audit-logs?action=api_key.created&resourceId=${viaKey.id}`));
  expect(entries.data).toHaveLength(1);
  expect(entries.data[0].actor).toMatchObject({ type: "api_key", id: t.writeKeyId });
});

test("over the upload route: an old session's KYB submission is asked again and stores nothing; confirmed, it is accepted", async () => {
  const t = await tenantWithClients();
  await ageSessions(t.account.userId);
  const form = async () => ({
    certificateOfIncorporation: await pdfPart(`incorporation-${unique()}.pdf`),
    taxCertificate: pngPart("tin.png"),
  });
  const refused = await t.account.session.post("/api/upload/business/compliance/kyb/submit", { multipart: await form() });
  await problem(refused, 403, "reauthentication_required");
  expect((await ok(await t.read.get("business/compliance/kyb/status"))).status).toBe("not_submitted");

  await trpc(t.account, "profile.reauthenticate", { password: t.account.password });
  const accepted = await t.account.session.post("/api/upload/business/compliance/kyb/submit", { multipart: await form() });
  expect(accepted.status(), await accepted.text()).toBe(201);
  expect((await ok(await t.read.get("business/compliance/kyb/status"))).status).toBe("pending");
});

test("two-factor: a code confirms once; turning it off needs the password and a code, checked by the server", async () => {
  test.setTimeout(90_000);
  const t = await tenantWithClients();
  const { key, backupCodes, at } = await enrol(t.account);
  await ageSessions(t.account.userId);

  // The code that enrolled (its step is used): refused; the next step's code confirms, once. Both are of the
  // enrolment's step, not of now: on a busy machine the step may have turned since (a CI run's first test did).
  await awayFromStepEnd();
  const used = await trpcError(t.account, "profile.reauthenticate", { code: await totpCode(key, 0, at) });
  expect(used).toMatchObject({ status: 422, code: "validation_failed" });
  const next = await totpCode(key, 1, at);
  await trpc(t.account, "profile.reauthenticate", { code: next });
  expect(await trpcError(t.account, "profile.reauthenticate", { code: next })).toMatchObject({ status: 422 });

  const disable = (data: Record<string, unknown>) => t.account.session.post("/api/auth/two-factor/disable", { data });
  const stillOn = async () =>
    ((await (await t.account.session.get("/api/auth/get-session")).json()) as { user: { twoFactorEnabled: boolean } }).user
      .twoFactorEnabled;
  const noCode = await disable({ password: t.account.password });
  expect(noCode.status()).toBe(400);
  expect((await noCode.json()).code).toBe("CODE_REQUIRED");
  const wrongPassword = await disable({ password: "not-my-password", code: backupCodes[0] });
  expect(wrongPassword.status()).toBe(400);
  expect((await wrongPassword.json()).code).toBe("INVALID_PASSWORD");
  const wrongCode = await disable({ password: t.account.password, code: "ZZZZZ-99999" });
  expect(wrongCode.status()).toBe(401);
  expect((await wrongCode.json()).code).toBe("INVALID_CODE");
  expect(await stillOn()).toBe(true);
  // The backup code was not used up by the wrong password: it turns two-factor off now.
  const off = await disable({ password: t.account.password, code: backupCodes[0] });
  expect(off.status(), await off.text()).toBe(200);
  expect(await stillOn()).toBe(false);
});

test("required two-factor: the owner needs it first; a member without it is held at set-up (their open session too), their keys keep working; enrolled, they cannot turn it off; lifting it asks again", async () => {
  test.setTimeout(120_000);
  const t = await tenantWithClients();
  const owner = t.account;
  expect(await trpcError(owner, "security.setTwoFactorRequirement", { required: true })).toMatchObject({
    status: 409,
    code: "invalid_state",
  });
  const member = await joinTeam(t, "ADMIN");
  const memberKey = await trpc<{ key: string }>(member.account, "apiKeys.create", {
    name: `member-${unique()}`,
    permissions: ["read"],
    mode: "live",
  });
  expect(await trpcError(member.account, "security.setTwoFactorRequirement", { required: true })).toMatchObject({
    status: 403,
    code: "forbidden",
  });

  const ownerTf = await enrol(owner);
  const on = await trpc<{ required: boolean; membersWithout: number }>(owner, "security.setTwoFactorRequirement", {
    required: true,
  });
  expect(on).toMatchObject({ required: true, membersWithout: 1 });

  // The member's session, made before: refused by the dashboard's API, every page sends it to set-up.
  expect(await trpcError(member.account, "apiKeys.list", { limit: 10 }, "query")).toMatchObject({
    status: 403,
    code: "two_factor_required",
  });
  const home = await member.account.session.get("/", { maxRedirects: 0 });
  expect(home.status()).toBe(307);
  expect(home.headers().location).toMatch(/\/two-factor-setup$/);
  expect((await member.account.session.get("/two-factor-setup")).status()).toBe(200);
  // Their key is a machine credential: it keeps working.
  const keyClient = await restClient(memberKey.key);
  expect((await keyClient.get("business/policies")).status()).toBe(200);

  const memberTf = await enrol(member.account);
  await trpc(member.account, "apiKeys.list", { limit: 10 }, "query");
  expect((await member.account.session.get("/", { maxRedirects: 0 })).status()).toBe(200);
  // Required: it stays on.
  const refused = await member.account.session.post("/api/auth/two-factor/disable", {
    data: { password: member.account.password, code: memberTf.backupCodes[0] },
  });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).code).toBe("TWO_FACTOR_REQUIRED_BY_ORGANIZATION");

  // Lifting it from an old session: asked again first.
  await ageSessions(owner.userId);
  expect(await trpcError(owner, "security.setTwoFactorRequirement", { required: false })).toMatchObject({
    code: "reauthentication_required",
  });
  expect((await trpc<{ required: boolean }>(owner, "security.twoFactorRequirement", undefined, "query")).required).toBe(true);
  await trpc(owner, "profile.reauthenticate", { code: ownerTf.backupCodes[0] });
  const off = await trpc<{ required: boolean }>(owner, "security.setTwoFactorRequirement", { required: false });
  expect(off.required).toBe(false);
});
