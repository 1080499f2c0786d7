// REST: /organizations — the key acts as its creator, with the creator's role,
// on the key's own organization only: any other organization's id is a 404,
// whatever the creator's role there (SPEC §2). The list and the switch of the
// dashboard's organization cover all of the creator's organizations; only a
// live key creates one, and a test key reads the profile but never changes it.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { problem } from "../support/api";
import {
  createPolicyFor,
  currentOrganization,
  errorPaths,
  expectOrganizationShape,
  listAll,
  ok,
  tenantWithClients,
} from "./_helpers";

const orgInput = (over: Record<string, unknown> = {}) => ({
  name: "Second Branch Ltd",
  email: "branch@example.test",
  phone: "+2348012345678",
  address: "1 Marina, Lagos",
  ...over,
});

const createOrg = async (client: APIRequestContext, over: Record<string, unknown> = {}) =>
  ok(await client.post("organizations", { data: orgInput(over) }), 201);

test.describe("GET /organizations", () => {
  test("lists the creator's organization with role OWNER", async () => {
    const t = await tenantWithClients("Listing Co");
    const page = await ok(await t.read.get("organizations"));
    expect(Object.keys(page).sort()).toEqual(["data", "nextCursor"]);
    expect(page.nextCursor).toBeNull();
    expect(page.data).toHaveLength(1);
    expectOrganizationShape(page.data[0]);
    expect(page.data[0]).toMatchObject({ id: t.organizationId, name: "Listing Co", role: "OWNER", currency: "NGN" });
  });

  test("pages with limit and cursor, newest first", async () => {
    const t = await tenantWithClients();
    const a = await createOrg(t.write, { name: "A" });
    const b = await createOrg(t.write, { name: "B" });
    const first = await ok(await t.read.get("organizations?limit=2"));
    expect(first.data.map((o: { id: string }) => o.id)).toEqual([b.id, a.id]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await ok(await t.read.get(`organizations?limit=2&cursor=${encodeURIComponent(first.nextCursor)}`));
    expect(second.data.map((o: { id: string }) => o.id)).toEqual([t.organizationId]);
    expect(second.nextCursor).toBeNull();
  });

  test("bad limit or cursor → 400 invalid_query", async () => {
    const t = await tenantWithClients();
    await problem(await t.read.get("organizations?limit=0"), 400, "invalid_query");
    await problem(await t.read.get("organizations?cursor=garbage"), 400, "invalid_query");
  });
});

test.describe("POST /organizations", () => {
  test("creates an organization owned by the key's creator, then lists and reads it", async () => {
    const t = await tenantWithClients();
    const org = await createOrg(t.write, { currency: "USD" });
    expectOrganizationShape(org);
    expect(org).toMatchObject({ ...orgInput(), currency: "USD", role: "OWNER" });
    expect(org.id).not.toBe(t.organizationId);

    const ids = (await listAll(t.read, "organizations")).map((o) => o.id);
    expect(ids).toEqual([org.id, t.organizationId]);
    // The key stays bound to its own organization: the new one is its creator's, not the key's.
    await problem(await t.read.get(`organizations/${org.id}`), 404, "not_found");
    expect((await currentOrganization(t.account)).id).toBe(org.id);
  });

  test("a test key → 403 forbidden, nothing created", async () => {
    const t = await tenantWithClients(undefined, "test");
    const before = (await listAll(t.read, "organizations")).map((o) => o.id);
    const res = await t.write.post("organizations", { data: orgInput() });
    const body = await problem(res, 403, "forbidden");
    expect(body.detail).toBe("Test keys cannot change the live account");
    expect((await listAll(t.read, "organizations")).map((o) => o.id)).toEqual(before);
  });

  test("phone and address are optional; currency defaults to NGN", async () => {
    const t = await tenantWithClients();
    const org = await ok(await t.write.post("organizations", { data: { name: "Minimal", email: "m@example.test" } }), 201);
    expect(org).toMatchObject({
      name: "Minimal",
      email: "m@example.test",
      phone: null,
      address: null,
      currency: "NGN",
      role: "OWNER",
    });
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ["bad email", orgInput({ email: "not-an-email" }), "email"],
    ["phone not E.164", orgInput({ phone: "08012345678" }), "phone"],
    ["phone with letters", orgInput({ phone: "+234abc" }), "phone"],
    ["empty name", orgInput({ name: "" }), "name"],
    ["blank name", orgInput({ name: "   " }), "name"],
    ["missing name", { email: "x@example.test" }, "name"],
    ["lower-case currency", orgInput({ currency: "usd" }), "currency"],
  ];
  for (const [label, body, path] of invalid) {
    test(`${label} → 422 naming ${path}, nothing created`, async () => {
      const t = await tenantWithClients();
      const err = await problem(await t.write.post("organizations", { data: body }), 422, "validation_failed");
      expect(errorPaths(err)).toContain(path);
      expect((await listAll(t.read, "organizations")).map((o) => o.id)).toEqual([t.organizationId]);
    });
  }
});

test.describe("GET /organizations/{accountID}", () => {
  test("answers the creator's organization with their role", async () => {
    const t = await tenantWithClients("Readable Ltd");
    const org = await ok(await t.read.get(`organizations/${t.organizationId}`));
    expectOrganizationShape(org);
    expect(org).toMatchObject({ id: t.organizationId, name: "Readable Ltd", role: "OWNER" });
  });

  test("another user's organization or an unknown id → 404", async () => {
    const [a, b] = await Promise.all([tenantWithClients(), tenantWithClients()]);
    await problem(await a.read.get(`organizations/${b.organizationId}`), 404, "not_found");
    await problem(await a.read.get("organizations/no-such-org"), 404, "not_found");
  });

  test("a test key reads its account's profile", async () => {
    const t = await tenantWithClients("Test Side Ltd", "test");
    expect(await ok(await t.read.get(`organizations/${t.organizationId}`))).toMatchObject({
      id: t.organizationId,
      name: "Test Side Ltd",
      role: "OWNER",
    });
  });
});

test.describe("PUT /organizations/{accountID}", () => {
  test("updates the profile and the change is read back", async () => {
    const t = await tenantWithClients();
    const updated = await ok(
      await t.write.put(`organizations/${t.organizationId}`, {
        data: { name: "Renamed Ltd", email: "ops@renamed.test", phone: "+14155550100" },
      }),
    );
    expectOrganizationShape(updated);
    expect(updated).toMatchObject({
      id: t.organizationId,
      name: "Renamed Ltd",
      email: "ops@renamed.test",
      phone: "+14155550100",
      role: "OWNER",
    });
    expect(await ok(await t.read.get(`organizations/${t.organizationId}`))).toEqual(updated);
  });

  test("another organization of the same user (OWNER there too) → 404, unchanged: a key changes only its own", async () => {
    const t = await tenantWithClients();
    const second = await createOrg(t.write);
    await problem(await t.write.put(`organizations/${second.id}`, { data: { address: "2 Broad St" } }), 404, "not_found");
    // The second organization (the creator's active one since it was made) is unchanged.
    const current = await currentOrganization(t.account);
    expect(current.id).toBe(second.id);
    expect((current as { address?: string | null }).address).toBe(second.address);
  });

  test("a test key → 403 forbidden, unchanged", async () => {
    const t = await tenantWithClients(undefined, "test");
    const before = await ok(await t.read.get(`organizations/${t.organizationId}`));
    const body = await problem(
      await t.write.put(`organizations/${t.organizationId}`, { data: { name: "Renamed by a test key" } }),
      403,
      "forbidden",
    );
    expect(body.detail).toBe("Test keys cannot change the live account");
    expect(await ok(await t.read.get(`organizations/${t.organizationId}`))).toEqual(before);
  });

  test("another user's organization → 404, unchanged", async () => {
    const [a, b] = await Promise.all([tenantWithClients(), tenantWithClients()]);
    const before = await ok(await b.read.get(`organizations/${b.organizationId}`));
    await problem(await a.write.put(`organizations/${b.organizationId}`, { data: { name: "Taken over" } }), 404, "not_found");
    expect(await ok(await b.read.get(`organizations/${b.organizationId}`))).toEqual(before);
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ["bad email", { email: "nope" }, "email"],
    ["phone not E.164", { phone: "0801 234 5678" }, "phone"],
    ["empty name", { name: "" }, "name"],
  ];
  for (const [label, body, path] of invalid) {
    test(`${label} → 422 naming ${path}, unchanged`, async () => {
      const t = await tenantWithClients();
      const before = await ok(await t.read.get(`organizations/${t.organizationId}`));
      const err = await problem(await t.write.put(`organizations/${t.organizationId}`, { data: body }), 422, "validation_failed");
      expect(errorPaths(err)).toContain(path);
      expect(await ok(await t.read.get(`organizations/${t.organizationId}`))).toEqual(before);
    });
  }

  test("an empty object → 422", async () => {
    const t = await tenantWithClients();
    await problem(await t.write.put(`organizations/${t.organizationId}`, { data: {} }), 422, "validation_failed");
  });

  test("currency: an ISO 4217 code; it changes until a payment is made, then 409 currency_locked with the reason", async () => {
    const t = await tenantWithClients();
    const path = `organizations/${t.organizationId}`;
    const bad = await problem(await t.write.put(path, { data: { currency: "XYZ" } }), 422, "validation_failed");
    expect(bad.errors).toEqual([{ path: "currency", message: "Choose a currency (an ISO 4217 code, like NGN or USD)" }]);
    const policy = await createPolicyFor(t.write, { price: "20.00" });
    expect((await ok(await t.write.put(path, { data: { currency: "USD" } }))).currency).toBe("USD");
    // The policies follow: nothing was sold in the old currency.
    expect((await ok(await t.read.get(`business/policies/${policy.id}`))).currency).toBe("USD");

    await ok(
      await t.write.post("payments/initialize", { data: { amount: 20, policyId: policy.id, email: "a@example.test" } }),
      201,
    );
    const before = await ok(await t.read.get(path));
    const locked = await problem(await t.write.put(path, { data: { currency: "EUR", name: "Renamed" } }), 409, "currency_locked");
    expect(locked.detail).toContain("The currency stays USD");
    expect(locked.errors).toEqual([
      { path: "currency", message: "Payments have already been made in USD, so the currency can no longer change" },
    ]);
    expect(await ok(await t.read.get(path))).toEqual(before);
    expect((await ok(await t.read.get(`business/policies/${policy.id}`))).currency).toBe("USD");
  });
});

test.describe("POST /organizations/{accountID}/switch", () => {
  test("switches the creator's active organization (seen by the dashboard); the key stays bound to its own", async () => {
    const t = await tenantWithClients();
    const second = await createOrg(t.write, { name: "Switch Target" });
    // Creating an organization makes it the active one; switch back, then to the new one.
    const back = await ok(await t.write.post(`organizations/${t.organizationId}/switch`));
    expectOrganizationShape(back);
    expect(back).toMatchObject({ id: t.organizationId, role: "OWNER" });
    expect((await currentOrganization(t.account)).id).toBe(t.organizationId);

    const switched = await ok(await t.write.post(`organizations/${second.id}/switch`));
    expect(switched).toMatchObject({ id: second.id, name: "Switch Target", role: "OWNER" });
    expect((await currentOrganization(t.account)).id).toBe(second.id);

    // /business endpoints still act on the key's own organization.
    const keys = (await listAll(t.write, "business/api-keys")).map((k) => k.id);
    expect(keys.sort()).toEqual([t.writeKeyId, t.readKeyId].sort());
  });

  test("another user's organization → 404; neither user's active organization changes", async () => {
    const [a, b] = await Promise.all([tenantWithClients(), tenantWithClients()]);
    await problem(await a.write.post(`organizations/${b.organizationId}/switch`), 404, "not_found");
    expect((await currentOrganization(a.account)).id).toBe(a.organizationId);
    expect((await currentOrganization(b.account)).id).toBe(b.organizationId);
  });
});
