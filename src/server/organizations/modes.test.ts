// Test mode: every organization has a test twin that cd_test_ keys and the
// dashboard's test view act as. Data is kept apart by the twin's own
// organizationId; team, settings and API keys stay the live organization's;
// test money is always the sandbox's, live money the configured provider's.
import { afterEach, describe, expect, it } from "vitest";
import type { Actor } from "@/server/actor";
import { CreateApiKeyInput } from "@/lib/schemas/api-keys";
import { authenticateApiKey, createApiKey, keyActor, listApiKeys, revokeApiKey } from "@/server/api-keys/service";
import { db } from "@/server/db/client";
import { getEarningsOverview } from "@/server/earnings/service";
import { getKyb, submitKyb } from "@/server/kyb/service";
import { env } from "@/server/env";
import { AppError } from "@/server/errors";
import { payWithCard, SANDBOX_CARDS } from "@/server/payments/checkout";
import { CheckoutInput, InitializePaymentInput } from "@/lib/schemas/payments";
import { initializePayment } from "@/server/payments/service";
import { CreatePolicyInput } from "@/lib/schemas/policies";
import { createPolicy, getPolicy, listPolicies } from "@/server/policies/service";
import { getSettings } from "@/server/settings/service";
import { listMembers } from "@/server/team/members";
import { addMember, codeOf, ownerWithOrganization } from "@/test/fixtures";
import { kybUploads } from "@/test/uploads";
import { sessionActor, setDashboardMode } from "./service";

const key = (actor: Actor, mode: "live" | "test", permissions: ("read" | "write")[] = ["read", "write"]) =>
  createApiKey(actor, CreateApiKeyInput.parse({ name: `${mode} key`, permissions, mode }));

const actorOfKey = async (secret: string) => keyActor(await authenticateApiKey(secret));

const policy = (actor: Actor, name = "Cover") =>
  createPolicy(actor, CreatePolicyInput.parse({ name, type: "property", duration: "yearly", price: "100.00" }));

const card = (cardNumber: string = SANDBOX_CARDS.success) =>
  CheckoutInput.parse({ cardNumber, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: "123" });

async function sell(actor: Actor, policyId: string) {
  const p = await initializePayment(actor, InitializePaymentInput.parse({ amount: 100, policyId, email: "ada@example.test" }));
  await payWithCard(p.reference, card());
  return p;
}

/** Runs with some settings changed, as a deployment would have them (the app reads `env` live). */
const saved: Partial<Record<keyof typeof env, unknown>> = {};
function setEnv(values: Partial<Record<"PAYMENTS_PROVIDER" | "PAYSTACK_SECRET_KEY" | "DATABASE_URL", string | undefined>>) {
  for (const [k, v] of Object.entries(values)) {
    if (!(k in saved)) saved[k as keyof typeof env] = env[k as keyof typeof env];
    (env as unknown as Record<string, unknown>)[k] = v;
  }
}
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) (env as unknown as Record<string, unknown>)[k] = v;
  for (const k of Object.keys(saved)) delete saved[k as keyof typeof env];
});

describe("keys and twins", () => {
  it("an organization is made with its test twin; a test key acts as the twin, with the live account for team and settings", async () => {
    const { actor, org, user } = await ownerWithOrganization();
    const twin = await db.organization.findUniqueOrThrow({ where: { liveOrganizationId: org.id } });
    expect([twin.livemode, twin.name, twin.currency]).toEqual([false, org.name, org.currency]);

    const test = await key(actor, "test");
    expect(test.key).toMatch(/^cd_test_[0-9A-Za-z]{32}$/);
    expect(test.mode).toBe("test");
    expect((await key(actor, "live")).key).toMatch(/^cd_live_/);
    expect(await actorOfKey(test.key)).toEqual({
      organizationId: twin.id,
      accountId: org.id,
      livemode: false,
      userId: user.id,
      role: "OWNER",
      apiKey: { id: test.id, permissions: ["read", "write"] },
    });

    // Team and settings are the same in both modes.
    const testActor = await actorOfKey(test.key);
    expect((await listMembers(testActor, { limit: 20 })).data.map((m) => m.userId)).toEqual([user.id]);
    expect(await getSettings(testActor)).toEqual(await getSettings(actor));
  });

  it("a test key sees and manages test keys only, and cannot make a live one; a live key or the dashboard sees both", async () => {
    const { actor } = await ownerWithOrganization();
    const live = await key(actor, "live");
    const test = await key(actor, "test");
    const testActor = await actorOfKey(test.key);
    expect((await listApiKeys(testActor, { limit: 20 })).data.map((k) => k.id)).toEqual([test.id]);
    expect((await listApiKeys(actor, { limit: 20 })).data.map((k) => k.id).sort()).toEqual([live.id, test.id].sort());
    expect(await codeOf(revokeApiKey(testActor, live.id))).toBe("not_found");
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: live.id } })).status).toBe("active");
    expect(await codeOf(key(testActor, "live"))).toBe("forbidden");
    expect((await key(testActor, "test")).key).toMatch(/^cd_test_/);
    expect((await key(await actorOfKey(live.key), "test")).mode).toBe("test");
  });

  it("the dashboard's test view acts as the twin while the user has it on", async () => {
    const { actor, org, user } = await ownerWithOrganization();
    const member = { organizationId: org.id, role: "OWNER" as const };
    await setDashboardMode(user.id, false);
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).testMode).toBe(true);
    const view = await sessionActor(user.id, member, true);
    expect(view).toMatchObject({ accountId: org.id, livemode: false });
    expect(view.organizationId).not.toBe(org.id);
    expect(await sessionActor(user.id, member, false)).toMatchObject({ organizationId: org.id, livemode: true });
    await setDashboardMode(user.id, true);
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).testMode).toBe(false);
    expect(actor.organizationId).toBe(org.id);
  });
});

describe("data kept apart", () => {
  it("a test key never sees a live record and the other way round", async () => {
    const { actor } = await ownerWithOrganization();
    const testActor = await actorOfKey((await key(actor, "test")).key);
    const livePolicy = await policy(actor, "Live cover");
    const testPolicy = await policy(testActor, "Test cover");
    expect((await listPolicies(actor, { limit: 20 })).data.map((p) => p.id)).toEqual([livePolicy.id]);
    expect((await listPolicies(testActor, { limit: 20 })).data.map((p) => p.id)).toEqual([testPolicy.id]);
    expect(await codeOf(getPolicy(testActor, livePolicy.id))).toBe("not_found");
    expect(await codeOf(getPolicy(actor, testPolicy.id))).toBe("not_found");
    // A member's removal from the live organization still reaches their test keys (they belong to it).
    const admin = await addMember(actor.organizationId, "ADMIN");
    const adminTest = await key(admin.actor, "test");
    expect(adminTest.mode).toBe("test");
  });

  it("a test payment moves the twin's earnings, never live earnings", async () => {
    const { actor } = await ownerWithOrganization();
    const testActor = await actorOfKey((await key(actor, "test")).key);
    await sell(testActor, (await policy(testActor)).id);
    expect((await getEarningsOverview(testActor)).totalEarned).toBe("100.00");
    expect((await getEarningsOverview(actor)).totalEarned).toBe("0.00");
    const payment = await db.payment.findFirstOrThrow({ where: { organizationId: testActor.organizationId } });
    expect(payment.provider).toBe("sandbox");
  });
});

describe("KYB by mode", () => {
  it("a test-mode submission is approved at once; the live one waits for review", async () => {
    const { actor } = await ownerWithOrganization();
    const testActor = await actorOfKey((await key(actor, "test")).key);
    expect((await submitKyb(testActor, kybUploads())).status).toBe("approved");
    expect((await submitKyb(actor, kybUploads())).status).toBe("pending");
    expect((await getKyb(actor)).status).toBe("pending");
  });
});

describe("money by mode", () => {
  it("without a provider, live payments are refused with how to configure one; test payments still work", async () => {
    const { actor } = await ownerWithOrganization();
    const testActor = await actorOfKey((await key(actor, "test")).key);
    const livePolicy = await policy(actor);
    const testPolicy = await policy(testActor);
    setEnv({ PAYMENTS_PROVIDER: undefined, PAYSTACK_SECRET_KEY: undefined, DATABASE_URL: "postgres://production.example/db" });
    const refused = await initializePayment(
      actor,
      InitializePaymentInput.parse({ amount: 100, policyId: livePolicy.id, email: "a@example.test" }),
    ).catch((e: AppError) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe("provider_not_configured");
    expect((refused as AppError).status).toBe(409);
    expect((refused as AppError).message).toContain("PAYSTACK_SECRET_KEY");
    expect((refused as AppError).message).toContain("PAYMENTS_PROVIDER=sandbox");
    expect(await db.payment.count({ where: { organizationId: actor.organizationId } })).toBe(0);
    await sell(testActor, testPolicy.id);
    expect((await getEarningsOverview(testActor)).totalEarned).toBe("100.00");
    // The embedded database's default is a demo deployment: live payments take the test cards.
    setEnv({ DATABASE_URL: undefined });
    await sell(actor, livePolicy.id);
    expect((await getEarningsOverview(actor)).totalEarned).toBe("100.00");
  });

  it("with a real provider configured, the card form settles test payments but never a live sandbox payment", async () => {
    const { actor } = await ownerWithOrganization();
    const testActor = await actorOfKey((await key(actor, "test")).key);
    // Made while the sandbox took live payments (a demo deployment), then a real provider is configured.
    const live = await initializePayment(
      actor,
      InitializePaymentInput.parse({ amount: 100, policyId: (await policy(actor)).id, email: "a@example.test" }),
    );
    const test = await initializePayment(
      testActor,
      InitializePaymentInput.parse({ amount: 100, policyId: (await policy(testActor)).id, email: "a@example.test" }),
    );
    setEnv({ PAYMENTS_PROVIDER: undefined, PAYSTACK_SECRET_KEY: "sk_test_fake_not_called" });
    expect(await codeOf(payWithCard(live.reference, card()))).toBe("invalid_state");
    expect((await db.payment.findUniqueOrThrow({ where: { reference: live.reference } })).status).toBe("pending");
    await payWithCard(test.reference, card());
    expect((await db.payment.findUniqueOrThrow({ where: { reference: test.reference } })).status).toBe("success");
    expect((await getEarningsOverview(actor)).totalEarned).toBe("0.00");
  });
});
