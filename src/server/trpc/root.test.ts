// The dashboard's tRPC API checks every answer against its declared schema:
// a procedure without `.output()` fails here, and a value that does not match
// (say a row written around the services) is an INTERNAL_SERVER_ERROR, never
// passed on to the browser.
import { TRPCError } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { beforeAll, describe, expect, it } from "vitest";
import { connectDatabase, db } from "@/server/db/client";
import { addMember, ownerWithOrganization, signedInUser } from "@/test/fixtures";
import { createCallerFactory, type Context } from "./init";
import { appRouter } from "./root";

/** A caller signed in as a fresh owner, in their organization. */
async function ownerCaller() {
  const { user, org } = await ownerWithOrganization();
  const signedIn = await signedInUser(user.id);
  const ctx: Context = { headers: new Headers(), user: signedIn as NonNullable<Context["user"]> };
  return { caller: createCallerFactory(appRouter)(ctx), ctx, org };
}

describe("tRPC output schemas", () => {
  beforeAll(connectDatabase); // opening and migrating the database is not part of a test's time

  it("every procedure declares the schema of its answer", () => {
    // `procedures` holds every procedure by its dotted path.
    const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { output?: unknown } }>;
    const missing = Object.entries(procedures)
      .filter(([, procedure]) => !procedure._def.output)
      .map(([path]) => path);
    expect(missing).toEqual([]);
  });

  it("answers that do not match their schema fail with INTERNAL_SERVER_ERROR", async () => {
    const { caller, ctx, org } = await ownerCaller();
    const key = await caller.apiKeys.create({ name: "CI", permissions: ["read"] });
    expect((await caller.apiKeys.list({ limit: 20 })).data.map((k) => k.id)).toEqual([key.id]);

    // A permission the API does not know, written around the service.
    await db.apiKey.updateMany({ where: { id: key.id, organizationId: org.id }, data: { permissions: ["admin"] } });
    const err = await caller.apiKeys.list({ limit: 20 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TRPCError);
    expect((err as TRPCError).code).toBe("INTERNAL_SERVER_ERROR");
    expect((err as TRPCError).message).toBe("Output validation failed");

    // Over HTTP the browser gets a plain internal error: neither the data nor the schema's complaint.
    const input = encodeURIComponent(JSON.stringify({ json: { limit: 20 } }));
    const res = await fetchRequestHandler({
      endpoint: "/api/trpc",
      req: new Request(`http://app.test/api/trpc/apiKeys.list?input=${input}`),
      router: appRouter,
      createContext: () => ctx,
    });
    expect(res.status).toBe(500);
    const body = (await res.json()) as { result?: unknown; error: { json: { message: string; data: { code: string } } } };
    expect(body.result).toBeUndefined();
    expect(body.error.json.data.code).toBe("internal_error");
    expect(JSON.stringify(body)).not.toContain(key.prefix);
    expect(body.error.json.message).not.toMatch(/validation|permissions|expected/i);
  });

  it("the dashboard's answers match their schemas", async () => {
    const { caller, org } = await ownerCaller();
    expect(await caller.organizations.current()).toMatchObject({ id: org.id, role: "OWNER" });
    expect((await caller.organizations.list()).data.map((o) => o.id)).toEqual([org.id]);
    expect(await caller.settings.get()).toMatchObject({ notifications: { email: expect.any(Boolean) } });
    expect(await caller.settings.update({ api: { rateLimit: 30 } })).toMatchObject({ api: { rateLimit: 30 } });
    expect(await caller.organizations.update({ phone: "+2348012345678" })).toMatchObject({ phone: "+2348012345678" });
    const other = await caller.organizations.create({ name: "Second shop", email: "second@example.test" });
    expect(await caller.organizations.switch({ organizationId: org.id })).toMatchObject({ id: org.id });
    expect(other).toMatchObject({ role: "OWNER" });

    const key = await caller.apiKeys.create({ name: "CI", permissions: ["read"] });
    expect(await caller.apiKeys.update({ id: key.id, data: { permissions: ["read", "write"] } })).toMatchObject({
      permissions: ["read", "write"],
    });
    expect((await caller.apiKeys.regenerate({ id: key.id })).key).not.toBe(key.key);
    expect(await caller.apiKeys.revoke({ id: key.id })).toMatchObject({ status: "revoked" });

    const policy = await caller.policies.create({ name: "Shop cover", type: "business", duration: "yearly", price: "120.00" });
    expect(await caller.policies.get({ id: policy.id })).toEqual(policy);
    expect((await caller.policies.list({ limit: 20 })).data).toEqual([policy]);
    expect(await caller.policies.analytics({ id: policy.id })).toMatchObject({ purchases: 0, series: expect.any(Array) });
    expect(await caller.policies.update({ id: policy.id, data: { benefits: ["Stock"] } })).toMatchObject({ benefits: ["Stock"] });
    expect(await caller.policies.setStatus({ id: policy.id, isActive: false })).toMatchObject({ isActive: false });
    expect(await caller.policies.setStatus({ id: policy.id, isActive: true })).toMatchObject({ isActive: true });

    const payment = await caller.payments.initialize({ amount: 120, policyId: policy.id, email: "buyer@example.test" });
    expect(await caller.payments.verify({ reference: payment.reference })).toMatchObject({ status: "pending" });
    expect((await caller.payments.list({ limit: 20 })).data).toHaveLength(1);
    expect((await caller.coverages.list({ limit: 20 })).data).toEqual([]);

    const claim = await caller.claims.submit({ policyId: policy.id, type: "fire", description: "Stock burnt", amount: 50 });
    await caller.claims.updateStatus({ id: claim.id, data: { status: "under_review", note: "Looking" } });
    const detail = await caller.claims.get({ id: claim.id });
    expect(detail.history.map((h) => h.toStatus)).toEqual(["submitted", "under_review"]);
    expect((await caller.claims.list({ limit: 20 })).data).toHaveLength(1);

    const colleague = await addMember(org.id, "MEMBER");
    const members = (await caller.team.members({ limit: 20 })).data;
    const colleagueMember = members.find((m) => m.userId === colleague.user.id)!;
    expect(members).toHaveLength(2);
    expect(await caller.team.updateRole({ id: colleagueMember.id, role: "ADMIN" })).toMatchObject({ role: "ADMIN" });
    expect(await caller.team.remove({ id: colleagueMember.id })).toEqual({ revokedApiKeys: [] });
    const invitation = await caller.team.invite({ email: "new-hire@example.test", role: "MEMBER" });
    expect((await caller.team.invitations({ limit: 20 })).data.map((i) => i.id)).toEqual([invitation.id]);
    expect(await caller.team.resend({ id: invitation.id })).toMatchObject({ status: "pending" });
    expect(await caller.team.cancel({ id: invitation.id })).toMatchObject({ status: "cancelled" });

    const hook = await caller.webhooks.create({ url: "http://93.184.216.34/hooks", events: ["claim.submitted"] });
    expect((await caller.webhooks.list({ limit: 20 })).data).toHaveLength(1);
    // Pointed at a refused address, a test event fails at once without sending: a logged attempt.
    await db.webhook.updateMany({ where: { id: hook.id, organizationId: org.id }, data: { url: "http://127.0.0.1:9/hooks" } });
    const attempt = await caller.webhooks.test({ id: hook.id });
    expect(attempt).toMatchObject({ webhookId: hook.id, status: "failed" });
    expect(await caller.webhooks.delivery({ id: attempt.id })).toMatchObject({ id: attempt.id, attempts: [{ id: attempt.id }] });
    expect(await caller.webhooks.retry({ id: attempt.id })).toMatchObject({ attempt: 2 });
    expect((await caller.webhooks.deliveries({ limit: 20 })).data).toHaveLength(2);
    expect(await caller.webhooks.setStatus({ id: hook.id, status: "disabled" })).toMatchObject({ status: "disabled" });
    expect(await caller.webhooks.delete({ id: hook.id })).toBeUndefined();
    expect(await caller.policies.delete({ id: policy.id })).toMatchObject({ isActive: false });
  });
});
