// REST: team management under /organizations/{accountID} (the key's own
// organization only, acting as its creator with the creator's role there; a
// test key reads the team but never changes it), plus the dashboard's tRPC
// team procedures and the acceptance of the mailed link.
import { expect, test } from "@playwright/test";
import { BASE_URL, problem } from "../support/api";
import {
  ISO,
  createKey,
  currentOrganization,
  errorPaths,
  invitationLinks,
  joinTeam,
  latestInvitationLink,
  listAll,
  mailTo,
  ok,
  restClient,
  send,
  signUpWithoutOrganization,
  teamSnapshot,
  tenantWithClients,
  tokenOf,
  trpc,
  trpcError,
  type HttpMethod,
} from "./_helpers";

type T = Awaited<ReturnType<typeof tenantWithClients>>;

const newEmail = () => `invitee-${Math.random().toString(36).slice(2, 12)}@example.test`;
const DAY = 86_400_000;

const invite = (t: T, email: string, role = "MEMBER") =>
  t.write.post(`organizations/${t.organizationId}/invite`, { data: { email, role } });
const inviteOk = async (t: T, email = newEmail(), role = "MEMBER") => ok(await invite(t, email, role), 201);
const members = (t: T) => listAll(t.write, `organizations/${t.organizationId}/members`);
const invitations = async (t: T, status?: string) =>
  ok(await t.write.get(`organizations/${t.organizationId}/invitations?limit=100${status ? `&status=${status}` : ""}`));

function expectInvitationShape(i: Record<string, unknown>) {
  expect(Object.keys(i).sort()).toEqual(["createdAt", "email", "expiresAt", "id", "invitedBy", "role", "status"]);
  expect(i.createdAt).toMatch(ISO);
  expect(i.expiresAt).toMatch(ISO);
  expect(Object.keys(i.invitedBy as object).sort()).toEqual(["email", "name", "userId"]);
}

function expectMemberShape(m: Record<string, unknown>) {
  expect(Object.keys(m).sort()).toEqual(["email", "id", "joinedAt", "name", "role", "userId"]);
  expect(m.joinedAt).toMatch(ISO);
}

test.describe("POST /organizations/{accountID}/invite", () => {
  test("201: a pending invitation for 7 days, invitedBy the key's creator; the email carries a link to APP_URL/invite/{token}", async () => {
    const t = await tenantWithClients("Invite Co");
    const email = newEmail();
    const before = Date.now();
    const res = await invite(t, email.toUpperCase(), "ADMIN");
    const created = await ok(res, 201);
    expectInvitationShape(created);
    expect(created).toMatchObject({
      email, // lower-cased
      role: "ADMIN",
      status: "pending",
      invitedBy: { userId: t.account.userId, email: t.account.email, name: "Test User" },
    });
    const expiresAt = new Date(created.expiresAt).getTime();
    expect(expiresAt).toBeGreaterThanOrEqual(before + 7 * DAY - 5000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 7 * DAY + 5000);

    const mails = await mailTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body).toContain("Invite Co");
    const [link] = await invitationLinks(email);
    expect(link).toMatch(new RegExp(`^${BASE_URL.replace(/[.]/g, "\\.")}/invite/[A-Za-z0-9_-]{43}$`));
    // The token is nowhere in the API's answers.
    expect(JSON.stringify(created)).not.toContain(tokenOf(link!));

    const listed = await invitations(t);
    expect(listed).toEqual({ data: [created], nextCursor: null });
    expect(JSON.stringify(listed)).not.toContain(tokenOf(link!));
  });

  const invalid: [string, (email: string) => Record<string, unknown>, string][] = [
    ["bad email", () => ({ email: "not-an-email", role: "MEMBER" }), "email"],
    ["missing email", () => ({ role: "MEMBER" }), "email"],
    ["role OWNER", (email) => ({ email, role: "OWNER" }), "role"],
    ["unknown role", (email) => ({ email, role: "SUPERUSER" }), "role"],
    ["lower-case role", (email) => ({ email, role: "member" }), "role"],
    ["missing role", (email) => ({ email }), "role"],
  ];
  for (const [label, body, path] of invalid) {
    test(`${label} → 422 naming ${path}; nothing created, nothing mailed`, async () => {
      const t = await tenantWithClients();
      const email = newEmail();
      const err = await problem(
        await t.write.post(`organizations/${t.organizationId}/invite`, { data: body(email) }),
        422,
        "validation_failed",
      );
      expect(errorPaths(err)).toContain(path);
      expect((await invitations(t)).data).toEqual([]);
      expect(await mailTo(email)).toEqual([]);
    });
  }

  test("an existing member (any case, the owner too) → 409 already_member", async () => {
    const t = await tenantWithClients();
    const joined = await joinTeam(t, "MEMBER");
    const before = await teamSnapshot(t.write, t.organizationId);
    for (const email of [joined.email, joined.email.toUpperCase(), t.account.email]) {
      await problem(await invite(t, email), 409, "already_member");
    }
    expect(await teamSnapshot(t.write, t.organizationId)).toEqual(before);
  });

  test("an email with a pending invitation → 409 invitation_pending; one invitation, one email", async () => {
    const t = await tenantWithClients();
    const email = newEmail();
    const first = await inviteOk(t, email);
    await problem(await invite(t, email, "ADMIN"), 409, "invitation_pending");
    await problem(await invite(t, email.toUpperCase()), 409, "invitation_pending");
    expect((await invitations(t)).data.map((i: { id: string }) => i.id)).toEqual([first.id]);
    expect(await mailTo(email)).toHaveLength(1);
  });

  test("after a cancel the address can be invited again", async () => {
    const t = await tenantWithClients();
    const email = newEmail();
    const first = await inviteOk(t, email);
    await ok(await t.write.delete(`organizations/${t.organizationId}/invitations/${first.id}`));
    const second = await inviteOk(t, email);
    expect(second.id).not.toBe(first.id);
  });

  test("Idempotency-Key: the same request replays the same invitation; one email", async () => {
    const t = await tenantWithClients();
    const email = newEmail();
    const headers = { "Idempotency-Key": `invite-${email}` };
    const first = await t.write.post(`organizations/${t.organizationId}/invite`, { data: { email, role: "MEMBER" }, headers });
    const again = await t.write.post(`organizations/${t.organizationId}/invite`, { data: { email, role: "MEMBER" }, headers });
    expect(await ok(again, 201)).toEqual(await ok(first, 201));
    expect(again.headers()["idempotent-replayed"]).toBe("true");
    expect(await mailTo(email)).toHaveLength(1);
  });
});

test.describe("GET /organizations/{accountID}/members", () => {
  test("lists the owner and joined members, newest first, with either key", async () => {
    const t = await tenantWithClients();
    const admin = await joinTeam(t, "ADMIN");
    const member = await joinTeam(t, "MEMBER");
    for (const client of [t.read, t.write]) {
      const page = await ok(await client.get(`organizations/${t.organizationId}/members`));
      expect(page.nextCursor).toBeNull();
      for (const m of page.data) expectMemberShape(m);
      expect(page.data.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
        [member.email, "MEMBER"],
        [admin.email, "ADMIN"],
        [t.account.email, "OWNER"],
      ]);
      expect(page.data[2]).toMatchObject({ userId: t.account.userId, name: "Test User" });
      expect(page.data[1]).toMatchObject({ userId: admin.account.userId, name: "Invited Person" });
    }
  });

  test("pages with limit and cursor; a bad limit → 400 invalid_query", async () => {
    const t = await tenantWithClients();
    await joinTeam(t, "MEMBER");
    await joinTeam(t, "MEMBER");
    const first = await ok(await t.read.get(`organizations/${t.organizationId}/members?limit=2`));
    expect(first.data).toHaveLength(2);
    const second = await ok(
      await t.read.get(`organizations/${t.organizationId}/members?limit=2&cursor=${encodeURIComponent(first.nextCursor)}`),
    );
    expect(second.data.map((m: { role: string }) => m.role)).toEqual(["OWNER"]);
    expect(second.nextCursor).toBeNull();
    await problem(await t.read.get(`organizations/${t.organizationId}/members?limit=101`), 400, "invalid_query");
  });
});

test.describe("PUT /organizations/{accountID}/members/{memberId}", () => {
  test("changes ADMIN ↔ MEMBER; the list shows it; the member then acts with the new role", async () => {
    const t = await tenantWithClients();
    const joined = await joinTeam(t, "MEMBER");
    await expect(trpcError(joined.account, "team.members", { limit: 20 }, "query")).resolves.toMatchObject({
      status: 403,
      code: "forbidden",
    });

    const promoted = await ok(
      await t.write.put(`organizations/${t.organizationId}/members/${joined.memberId}`, { data: { role: "ADMIN" } }),
    );
    expectMemberShape(promoted);
    expect(promoted).toMatchObject({ id: joined.memberId, email: joined.email, role: "ADMIN" });
    expect((await members(t)).find((m) => m.id === joined.memberId).role).toBe("ADMIN");
    const seen = await trpc<{ data: { id: string }[] }>(joined.account, "team.members", { limit: 20 }, "query");
    expect(seen.data).toHaveLength(2);

    const demoted = await ok(
      await t.write.put(`organizations/${t.organizationId}/members/${joined.memberId}`, { data: { role: "MEMBER" } }),
    );
    expect(demoted.role).toBe("MEMBER");
    await expect(trpcError(joined.account, "team.members", { limit: 20 }, "query")).resolves.toMatchObject({ code: "forbidden" });
  });

  test("the OWNER cannot be demoted → 409 invalid_state, unchanged", async () => {
    const t = await tenantWithClients();
    const owner = (await members(t)).find((m) => m.role === "OWNER");
    for (const role of ["ADMIN", "MEMBER"]) {
      await problem(
        await t.write.put(`organizations/${t.organizationId}/members/${owner.id}`, { data: { role } }),
        409,
        "invalid_state",
      );
    }
    // …also when an admin tries it with their own key.
    const admin = await joinTeam(t, "ADMIN");
    const adminKey = await restClient((await createKey(admin.account)).key);
    await problem(
      await adminKey.put(`organizations/${t.organizationId}/members/${owner.id}`, { data: { role: "MEMBER" } }),
      409,
      "invalid_state",
    );
    expect((await members(t)).find((m) => m.id === owner.id).role).toBe("OWNER");
  });

  const invalid: [string, unknown][] = [
    ["role OWNER", { role: "OWNER" }],
    ["unknown role", { role: "VIEWER" }],
    ["missing role", {}],
  ];
  for (const [label, body] of invalid) {
    test(`${label} → 422 naming role, unchanged`, async () => {
      const t = await tenantWithClients();
      const joined = await joinTeam(t, "MEMBER");
      const err = await problem(
        await t.write.put(`organizations/${t.organizationId}/members/${joined.memberId}`, { data: body }),
        422,
        "validation_failed",
      );
      expect(errorPaths(err)).toContain("role");
      expect((await members(t)).find((m) => m.id === joined.memberId).role).toBe("MEMBER");
    });
  }

  test("an unknown member id → 404", async () => {
    const t = await tenantWithClients();
    await problem(
      await t.write.put(`organizations/${t.organizationId}/members/no-such-member`, { data: { role: "ADMIN" } }),
      404,
      "not_found",
    );
  });
});

test.describe("DELETE /organizations/{accountID}/members/{memberId}", () => {
  test("204 with no body; the member is gone and their open session is refused at once", async () => {
    const t = await tenantWithClients();
    const joined = await joinTeam(t, "ADMIN");
    expect((await currentOrganization(joined.account)).id).toBe(t.organizationId);

    const res = await t.write.delete(`organizations/${t.organizationId}/members/${joined.memberId}`);
    expect(res.status()).toBe(204);
    expect(await res.text()).toBe("");
    expect((await members(t)).map((m) => m.email)).toEqual([t.account.email]);

    // Same session cookie, next request: no organization any more.
    for (const [procedure, kind] of [
      ["organizations.current", "query"],
      ["team.members", "query"],
      ["team.invitations", "query"],
    ] as const) {
      await expect(
        trpcError(joined.account, procedure, procedure === "organizations.current" ? undefined : { limit: 20 }, kind),
      ).resolves.toMatchObject({
        status: 403,
        code: "forbidden",
      });
    }
    await expect(trpcError(joined.account, "team.invite", { email: newEmail(), role: "MEMBER" })).resolves.toMatchObject({
      code: "forbidden",
    });
    // Removing again → 404.
    await problem(await t.write.delete(`organizations/${t.organizationId}/members/${joined.memberId}`), 404, "not_found");
  });

  test("a removed member's own API key is revoked with them: 401 revoked_api_key, user-scoped calls included", async () => {
    const t = await tenantWithClients();
    const joined = await joinTeam(t, "ADMIN");
    const key = await createKey(joined.account);
    expect(key.organizationId).toBe(t.organizationId);
    const client = await restClient(key.key);
    await ok(await client.get(`organizations/${t.organizationId}/members`));

    expect((await t.write.delete(`organizations/${t.organizationId}/members/${joined.memberId}`)).status()).toBe(204);
    await problem(await client.get(`organizations/${t.organizationId}/members`), 401, "revoked_api_key");
    await problem(
      await client.post(`organizations/${t.organizationId}/invite`, { data: { email: newEmail(), role: "ADMIN" } }),
      401,
      "revoked_api_key",
    );
    expect((await invitations(t)).data.filter((i: { status: string }) => i.status === "pending")).toEqual([]);
  });

  test("the OWNER cannot be removed → 409 invalid_state", async () => {
    const t = await tenantWithClients();
    const owner = (await members(t)).find((m) => m.role === "OWNER");
    await problem(await t.write.delete(`organizations/${t.organizationId}/members/${owner.id}`), 409, "invalid_state");
    expect((await members(t)).map((m) => m.id)).toEqual([owner.id]);
    expect((await currentOrganization(t.account)).id).toBe(t.organizationId);
  });

  test("an existing user who is removed keeps their own organization", async () => {
    const [a, b] = await Promise.all([tenantWithClients(), tenantWithClients()]);
    const joined = await joinTeam(a, "MEMBER", b.account);
    expect((await currentOrganization(b.account)).id).toBe(a.organizationId);
    expect((await a.write.delete(`organizations/${a.organizationId}/members/${joined.memberId}`)).status()).toBe(204);
    expect((await currentOrganization(b.account)).id).toBe(b.organizationId);
    await problem(await b.read.get(`organizations/${a.organizationId}`), 404, "not_found");
  });
});

test.describe("GET /organizations/{accountID}/invitations", () => {
  test("?status= filters pending, accepted, cancelled, expired; no filter lists all newest first", async () => {
    const t = await tenantWithClients();
    const joined = await joinTeam(t, "MEMBER");
    const cancelled = await inviteOk(t);
    await ok(await t.write.delete(`organizations/${t.organizationId}/invitations/${cancelled.id}`));
    const pending = await inviteOk(t);

    const ids = async (status?: string) =>
      (await invitations(t, status)).data.map((i: { id: string; status: string }) => [i.id, i.status]);
    expect(await ids()).toEqual([
      [pending.id, "pending"],
      [cancelled.id, "cancelled"],
      [joined.invitationId, "accepted"],
    ]);
    expect(await ids("pending")).toEqual([[pending.id, "pending"]]);
    expect(await ids("accepted")).toEqual([[joined.invitationId, "accepted"]]);
    expect(await ids("cancelled")).toEqual([[cancelled.id, "cancelled"]]);
    expect(await ids("expired")).toEqual([]);
    // The read key may list too.
    expect((await ok(await t.read.get(`organizations/${t.organizationId}/invitations?status=pending`))).data).toHaveLength(1);
  });

  test("an unknown status → 400 invalid_query", async () => {
    const t = await tenantWithClients();
    await problem(await t.read.get(`organizations/${t.organizationId}/invitations?status=revoked`), 400, "invalid_query");
  });
});

test.describe("POST /organizations/{accountID}/invitations/{invitationId}/resend", () => {
  test("200: a new link (the old one is dead), the expiry reset, a second email", async () => {
    const t = await tenantWithClients();
    const email = newEmail();
    const created = await inviteOk(t, email);
    const oldLink = await latestInvitationLink(email);

    const resent = await ok(await t.write.post(`organizations/${t.organizationId}/invitations/${created.id}/resend`));
    expectInvitationShape(resent);
    expect(resent).toMatchObject({ id: created.id, email, status: "pending", createdAt: created.createdAt });
    expect(new Date(resent.expiresAt).getTime()).toBeGreaterThanOrEqual(new Date(created.expiresAt).getTime());

    const links = await invitationLinks(email, 2);
    expect(links).toHaveLength(2);
    const newLink = links[1]!;
    expect(newLink).not.toBe(oldLink);

    const invitee = await signUpWithoutOrganization(email);
    await expect(trpcError(invitee, "team.accept", { token: tokenOf(oldLink) })).resolves.toMatchObject({
      status: 404,
      code: "not_found",
    });
    await trpc(invitee, "team.accept", { token: tokenOf(newLink) });
    expect((await currentOrganization(invitee)).id).toBe(t.organizationId);
  });

  test("only a pending invitation: cancelled or accepted → 409 invalid_state, no email", async () => {
    const t = await tenantWithClients();
    const cancelled = await inviteOk(t);
    await ok(await t.write.delete(`organizations/${t.organizationId}/invitations/${cancelled.id}`));
    const joined = await joinTeam(t, "MEMBER");
    for (const [id, email] of [
      [cancelled.id, cancelled.email],
      [joined.invitationId, joined.email],
    ]) {
      await problem(await t.write.post(`organizations/${t.organizationId}/invitations/${id}/resend`), 409, "invalid_state");
      expect(await mailTo(email)).toHaveLength(1);
    }
  });
});

test.describe("DELETE /organizations/{accountID}/invitations/{invitationId}", () => {
  test("200 with the invitation, status cancelled; the link is refused; cancelling again → 409", async () => {
    const t = await tenantWithClients();
    const email = newEmail();
    const created = await inviteOk(t, email);
    const link = await latestInvitationLink(email);

    const res = await t.write.delete(`organizations/${t.organizationId}/invitations/${created.id}`);
    const cancelled = await ok(res);
    expectInvitationShape(cancelled);
    expect(cancelled).toMatchObject({ id: created.id, email, status: "cancelled" });

    const invitee = await signUpWithoutOrganization(email);
    const refused = await trpcError(invitee, "team.accept", { token: tokenOf(link) });
    expect(refused).toMatchObject({ status: 409, code: "invalid_state" });
    expect(refused.message).toMatch(/cancelled/);
    await problem(await t.write.delete(`organizations/${t.organizationId}/invitations/${created.id}`), 409, "invalid_state");
  });
});

test.describe("accepting (tRPC team.accept)", () => {
  test("the invitee joins with the invited role; the organization becomes their active one; the link is single use", async () => {
    const t = await tenantWithClients("Joinable Ltd");
    const email = newEmail();
    await inviteOk(t, email, "ADMIN");
    const token = tokenOf(await latestInvitationLink(email));
    const invitee = await signUpWithoutOrganization(email);
    await expect(trpcError(invitee, "organizations.current", undefined, "query")).resolves.toMatchObject({ code: "forbidden" });

    await trpc(invitee, "team.accept", { token });
    expect(await currentOrganization(invitee)).toMatchObject({ id: t.organizationId, name: "Joinable Ltd", role: "ADMIN" });
    expect((await members(t)).find((m) => m.email === email)).toMatchObject({ role: "ADMIN", userId: invitee.userId });
    expect((await invitations(t, "accepted")).data.map((i: { email: string }) => i.email)).toEqual([email]);

    const again = await trpcError(invitee, "team.accept", { token });
    expect(again).toMatchObject({ status: 409, code: "invalid_state" });
    expect((await members(t)).filter((m) => m.email === email)).toHaveLength(1);
  });

  test("signed in as someone else → 403 naming both addresses; the invitation stays pending", async () => {
    const [t, other] = await Promise.all([tenantWithClients(), tenantWithClients()]);
    const email = newEmail();
    await inviteOk(t, email);
    const token = tokenOf(await latestInvitationLink(email));
    const refused = await trpcError(other.account, "team.accept", { token });
    expect(refused).toMatchObject({ status: 403, code: "forbidden" });
    expect(refused.message).toContain(email);
    expect(refused.message).toContain(other.account.email);
    expect((await invitations(t, "pending")).data.map((i: { email: string }) => i.email)).toEqual([email]);
    expect((await currentOrganization(other.account)).id).toBe(other.organizationId);
  });

  test("an existing user with their own organization joins and is switched to the new one", async () => {
    const [a, b] = await Promise.all([tenantWithClients(), tenantWithClients()]);
    await joinTeam(a, "ADMIN", b.account);
    expect(await currentOrganization(b.account)).toMatchObject({ id: a.organizationId, role: "ADMIN" });
    const orgs = await listAll(b.read, "organizations");
    expect(Object.fromEntries(orgs.map((o) => [o.id, o.role]))).toEqual({
      [a.organizationId]: "ADMIN",
      [b.organizationId]: "OWNER",
    });
  });

  test("unknown, malformed and unauthenticated → refused", async () => {
    const invitee = await signUpWithoutOrganization(newEmail());
    for (const token of ["A".repeat(43), "nope"]) {
      await expect(trpcError(invitee, "team.accept", { token })).resolves.toMatchObject({ status: 404, code: "not_found" });
    }
    const t = await tenantWithClients();
    const email = newEmail();
    await inviteOk(t, email);
    const token = tokenOf(await latestInvitationLink(email));
    const anonymous = await restClient(undefined, { Origin: BASE_URL });
    const res = await anonymous.post(`${BASE_URL}/api/trpc/team.accept`, { data: { json: { token } } });
    expect(res.status()).toBe(401);
    expect((await res.json()).error.json.data.code).toBe("unauthenticated");
    expect((await invitations(t, "pending")).data).toHaveLength(1);
  });
});

// ---------- permissions, table-driven ----------

interface Op {
  name: string;
  method: HttpMethod;
  path: (orgId: string, ids: { memberId: string; invitationId: string }) => string;
  body?: unknown;
  write: boolean;
}

const OPERATIONS: Op[] = [
  {
    name: "invite",
    method: "POST",
    path: (o) => `organizations/${o}/invite`,
    body: { email: "new-person@example.test", role: "MEMBER" },
    write: true,
  },
  { name: "list members", method: "GET", path: (o) => `organizations/${o}/members`, write: false },
  {
    name: "update role",
    method: "PUT",
    path: (o, i) => `organizations/${o}/members/${i.memberId}`,
    body: { role: "ADMIN" },
    write: true,
  },
  { name: "remove member", method: "DELETE", path: (o, i) => `organizations/${o}/members/${i.memberId}`, write: true },
  { name: "list invitations", method: "GET", path: (o) => `organizations/${o}/invitations`, write: false },
  { name: "resend", method: "POST", path: (o, i) => `organizations/${o}/invitations/${i.invitationId}/resend`, write: true },
  { name: "cancel", method: "DELETE", path: (o, i) => `organizations/${o}/invitations/${i.invitationId}`, write: true },
];

/** A tenant with one MEMBER and one pending invitation to act on. */
async function populated() {
  const t = await tenantWithClients();
  const joined = await joinTeam(t, "MEMBER");
  const pending = await inviteOk(t);
  return { t, ids: { memberId: joined.memberId, invitationId: pending.id as string }, joined };
}

test.describe("read-only key → 403 insufficient_permissions on every mutation; reads allowed", () => {
  for (const op of OPERATIONS) {
    test(`${op.method} ${op.name}`, async () => {
      const { t, ids } = await populated();
      const before = await teamSnapshot(t.write, t.organizationId);
      const res = await send(t.read, op.method, op.path(t.organizationId, ids), op.body);
      if (op.write) await problem(res, 403, "insufficient_permissions");
      else await ok(res);
      expect(await teamSnapshot(t.write, t.organizationId)).toEqual(before);
    });
  }
});

test.describe("a key whose creator is now a MEMBER (their role now) → 403 forbidden on every team endpoint", () => {
  for (const op of OPERATIONS) {
    test(`${op.method} ${op.name}`, async () => {
      const { t, ids } = await populated();
      // An ADMIN makes a key in t's organization, then is demoted: the key acts with the role they have now.
      const admin = await joinTeam(t, "ADMIN");
      const key = await createKey(admin.account, ["read", "write"]);
      expect(key.organizationId).toBe(t.organizationId);
      await ok(await t.write.put(`organizations/${t.organizationId}/members/${admin.memberId}`, { data: { role: "MEMBER" } }));
      const before = await teamSnapshot(t.write, t.organizationId);
      await problem(await send(await restClient(key.key), op.method, op.path(t.organizationId, ids), op.body), 403, "forbidden");
      expect(await teamSnapshot(t.write, t.organizationId)).toEqual(before);
    });
  }
});

test.describe("a test key reads the team and is refused every change (403 forbidden), nothing changes", () => {
  for (const op of OPERATIONS) {
    test(`${op.method} ${op.name}`, async () => {
      const { t, ids } = await populated();
      const testKey = await createKey(t.account, ["read", "write"], `test-${op.name}`, "test");
      const client = await restClient(testKey.key);
      const before = await teamSnapshot(t.write, t.organizationId);
      const res = await send(client, op.method, op.path(t.organizationId, ids), op.body);
      if (op.write) {
        const body = await problem(res, 403, "forbidden");
        expect(body.detail).toBe("Test keys cannot change the live account");
      } else await ok(res);
      expect(await teamSnapshot(t.write, t.organizationId)).toEqual(before);
    });
  }
});

test.describe("another organization → 404, nothing changes", () => {
  for (const op of OPERATIONS) {
    test(`${op.method} ${op.name}: an organization the key's creator is not in`, async () => {
      const [{ t: b, ids }, a] = await Promise.all([populated(), tenantWithClients()]);
      const before = await teamSnapshot(b.write, b.organizationId);
      await problem(await send(a.write, op.method, op.path(b.organizationId, ids), op.body), 404, "not_found");
      expect(await teamSnapshot(b.write, b.organizationId)).toEqual(before);
    });

    test(`${op.method} ${op.name}: an organization the key's creator is an ADMIN of, but not the key's own`, async () => {
      const [{ t: b, ids }, a] = await Promise.all([populated(), tenantWithClients()]);
      // a's owner joins b as ADMIN: a's key still acts on a's organization only (the hole of issue 24).
      await joinTeam(b, "ADMIN", a.account);
      const before = await teamSnapshot(b.write, b.organizationId);
      await problem(await send(a.write, op.method, op.path(b.organizationId, ids), op.body), 404, "not_found");
      expect(await teamSnapshot(b.write, b.organizationId)).toEqual(before);
    });
  }

  for (const op of OPERATIONS.filter((o) => o.path("o", { memberId: "m", invitationId: "i" }).split("/").length > 3)) {
    test(`${op.method} ${op.name}: another organization's id under one's own organization`, async () => {
      const [{ t: b, ids }, a] = await Promise.all([populated(), tenantWithClients()]);
      const before = await teamSnapshot(b.write, b.organizationId);
      const mine = await teamSnapshot(a.write, a.organizationId);
      await problem(await send(a.write, op.method, op.path(a.organizationId, ids), op.body), 404, "not_found");
      expect(await teamSnapshot(b.write, b.organizationId)).toEqual(before);
      expect(await teamSnapshot(a.write, a.organizationId)).toEqual(mine);
    });
  }
});

test.describe("tRPC: a MEMBER is refused every team procedure (FORBIDDEN, forbidden)", () => {
  const PROCEDURES: [string, "query" | "mutation", (ids: { memberId: string; invitationId: string }) => unknown][] = [
    ["team.members", "query", () => ({ limit: 20 })],
    ["team.invitations", "query", () => ({ limit: 20 })],
    ["team.invite", "mutation", () => ({ email: "someone-new@example.test", role: "MEMBER" })],
    ["team.updateRole", "mutation", (i) => ({ id: i.memberId, role: "ADMIN" })],
    ["team.remove", "mutation", (i) => ({ id: i.memberId })],
    ["team.activeApiKeys", "query", (i) => ({ id: i.memberId })],
    ["team.resend", "mutation", (i) => ({ id: i.invitationId })],
    ["team.cancel", "mutation", (i) => ({ id: i.invitationId })],
  ];
  test("every one, and nothing changes", async () => {
    const { t, ids, joined } = await populated();
    // The member acts on the owner's row and the pending invitation.
    const owner = (await members(t)).find((m) => m.role === "OWNER");
    const before = await teamSnapshot(t.write, t.organizationId);
    for (const [procedure, kind, input] of PROCEDURES) {
      for (const target of [ids, { ...ids, memberId: owner.id }]) {
        const refused = await trpcError(joined.account, procedure, input(target), kind);
        expect(refused, procedure).toMatchObject({ status: 403, code: "forbidden" });
      }
    }
    expect(await teamSnapshot(t.write, t.organizationId)).toEqual(before);
    // …while an ADMIN may.
    const admin = await joinTeam(t, "ADMIN");
    const page = await trpc<{ data: unknown[] }>(admin.account, "team.members", { limit: 20 }, "query");
    expect(page.data).toHaveLength(3);
  });
});
