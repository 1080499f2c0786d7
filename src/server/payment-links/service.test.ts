// Payment links: made per policy and mode, listed with their figures (views,
// payments started, paid, revenue), turned off; a visitor's payment started
// from one records it, with the name and the phone in E.164; starting is
// limited per address and per link.
import { describe, expect, it } from "vitest";
import { CreatePaymentLinkInput, ListPaymentLinksQuery, UpdatePaymentLinkInput } from "@/lib/schemas/payment-links";
import { CreatePolicyInput } from "@/lib/schemas/policies";
import type { Actor } from "@/server/actor";
import { db } from "@/server/db/client";
import { payWithCard } from "@/server/payments/checkout";
import { createPolicy, setPolicyStatus } from "@/server/policies/service";
import { ensureTestTwin } from "@/server/organizations/twin";
import { databaseCounter } from "@/server/rest/rate-limit";
import { addMember, ownerWithOrganization, refusal, unique } from "@/test/fixtures";
import { card } from "@/test/money";
import { createPaymentLink, getPaymentLink, listPaymentLinks, publicLink, startFromLink, updatePaymentLink } from "./service";
import { allowStart, PER_IP } from "./throttle";
import { countView, flushViews } from "./views";
import { EXPIRED_REASON, expireUnpaidLinkPayments } from "./expiry";

const policyOf = (actor: Actor, price = "150.00") =>
  createPolicy(actor, CreatePolicyInput.parse({ name: `Motor ${unique()}`, type: "auto", duration: "monthly", price }));
const linkOf = (actor: Actor, policyId: string, extra: Record<string, unknown> = {}) =>
  createPaymentLink(actor, CreatePaymentLinkInput.parse({ policyId, ...extra }));
const slugOf = (url: string) => url.split("/buy/")[1]!;

describe("payment links", () => {
  it("are made per policy, several each, listed newest first with their figures, and turned off", async () => {
    const { actor } = await ownerWithOrganization();
    const policy = await policyOf(actor);
    const a = await linkOf(actor, policy.id, { name: "Instagram", collectPhone: true });
    const b = await linkOf(actor, policy.id, { redirectUrl: "https://shop.example.test/thanks" });
    expect(a).toMatchObject({
      policyId: policy.id,
      policyName: policy.name,
      name: "Instagram",
      active: true,
      collectPhone: true,
    });
    expect(a).toMatchObject({ livemode: true, views: 0, started: 0, payments: 0, revenue: "0.00", currency: "NGN" });
    expect(a.url).toMatch(/\/buy\/[A-Za-z0-9_-]{12}$/);
    expect(slugOf(a.url)).not.toBe(slugOf(b.url));
    expect((await listPaymentLinks(actor, ListPaymentLinksQuery.parse({}))).data.map((l) => l.id)).toEqual([b.id, a.id]);

    // A visitor pays through `a`; another starts and leaves.
    const link = (await publicLink(slugOf(a.url)))!;
    const paid = await startFromLink(link, { name: "Ada Obi", email: "ada@example.test", phone: "+2348031234567" });
    await startFromLink(link, { name: "Bola", email: "bola@example.test", phone: null });
    await payWithCard(paid.reference, card());
    countView(a.id);
    countView(a.id);
    countView(a.id);
    await flushViews();
    const row = await db.payment.findUniqueOrThrow({ where: { reference: paid.reference } });
    expect(row).toMatchObject({
      paymentLinkId: a.id,
      customerName: "Ada Obi",
      customerPhone: "+2348031234567",
      email: "ada@example.test",
    });
    expect(await getPaymentLink(actor, a.id)).toMatchObject({ views: 3, started: 2, payments: 1, revenue: "150.00" });

    const off = await updatePaymentLink(actor, a.id, UpdatePaymentLinkInput.parse({ active: false }));
    expect(off.active).toBe(false);
    expect((await publicLink(slugOf(a.url)))!.gone).toBe(true);
    expect((await listPaymentLinks(actor, ListPaymentLinksQuery.parse({ active: "true" }))).data.map((l) => l.id)).toEqual([
      b.id,
    ]);
    // The policy taken off sale: its links are gone too.
    await setPolicyStatus(actor, policy.id, false);
    expect((await publicLink(slugOf(b.url)))!.gone).toBe(true);
    expect(await publicLink("no-such-slug")).toBeNull();
    expect(await publicLink("../../etc\u0000")).toBeNull();
  });

  it("another organization's link or policy is not found, and nothing changes; a member may read, not make", async () => {
    const { actor, org } = await ownerWithOrganization();
    const mine = await linkOf(actor, (await policyOf(actor)).id);
    const other = await ownerWithOrganization();
    expect((await refusal(getPaymentLink(other.actor, mine.id))).code).toBe("not_found");
    expect((await refusal(updatePaymentLink(other.actor, mine.id, UpdatePaymentLinkInput.parse({ active: false })))).code).toBe(
      "not_found",
    );
    expect((await refusal(linkOf(other.actor, mine.policyId))).code).toBe("not_found");
    expect((await getPaymentLink(actor, mine.id)).active).toBe(true);
    // The test twin is another organization too: a live link is not its own.
    const twin = await ensureTestTwin(org.id);
    const testActor: Actor = { ...actor, organizationId: twin, accountId: org.id, livemode: false };
    expect((await refusal(getPaymentLink(testActor, mine.id))).code).toBe("not_found");
    const reader = await addMember(org.id, "MEMBER");
    expect((await getPaymentLink(reader.actor, mine.id)).id).toBe(mine.id);
  });

  it("a test-mode link says so, and its payments are the test twin's", async () => {
    const { actor, org } = await ownerWithOrganization();
    const twin = await ensureTestTwin(org.id);
    const testActor: Actor = { ...actor, organizationId: twin, accountId: org.id, livemode: false };
    const link = await linkOf(testActor, (await policyOf(testActor)).id);
    expect(link.livemode).toBe(false);
    const started = await startFromLink((await publicLink(slugOf(link.url)))!, {
      name: "T",
      email: "t@example.test",
      phone: null,
    });
    expect((await db.payment.findUniqueOrThrow({ where: { reference: started.reference } })).organizationId).toBe(twin);
  });

  it("a visitor's phone is refused when it is no phone number (422), and no payment starts; a local one is made E.164", async () => {
    const { actor, org } = await ownerWithOrganization();
    const link = await linkOf(actor, (await policyOf(actor)).id, { collectPhone: true });
    const bad = await refusal(
      startFromLink((await publicLink(slugOf(link.url)))!, { name: "X", email: "x@example.test", phone: "12" }),
    );
    expect([bad.code, bad.extra.errors?.[0]?.path]).toEqual(["validation_failed", "phone"]);
    expect(await db.payment.count({ where: { organizationId: org.id } })).toBe(0);
    // A local Nigerian number, for a business selling in naira: stored in E.164.
    const local = await startFromLink((await publicLink(slugOf(link.url)))!, {
      name: "Y",
      email: "y@example.test",
      phone: "0803 123 4567",
    });
    expect((await db.payment.findUniqueOrThrow({ where: { reference: local.reference } })).customerPhone).toBe("+2348031234567");
  });

  it("starting payments is limited per address", async () => {
    const ip = `198.51.100.${Math.floor(Math.random() * 200)}-${unique()}`;
    const outcomes = [];
    for (let i = 0; i < PER_IP.max + 2; i++) outcomes.push((await allowStart(ip, `link-${unique()}`, databaseCounter)).ok);
    expect(outcomes.filter(Boolean)).toHaveLength(PER_IP.max);
    expect(outcomes.slice(PER_IP.max)).toEqual([false, false]);
  });

  it("a link's payment nobody paid for 24 hours expires (failed, with why); younger ones and others stay pending", async () => {
    const { actor } = await ownerWithOrganization();
    const policy = await policyOf(actor);
    const link = (await publicLink(slugOf((await linkOf(actor, policy.id)).url)))!;
    const old = await startFromLink(link, { name: "Old", email: "old@example.test", phone: null });
    const young = await startFromLink(link, { name: "Young", email: "young@example.test", phone: null });
    const dayAgo = new Date(Date.now() - 25 * 3_600_000);
    await db.payment.update({ where: { reference: old.reference }, data: { createdAt: dayAgo } });
    // A payment made by the API, not from a link, is the integrator's to manage.
    const direct = await db.payment.create({
      data: {
        organizationId: actor.organizationId,
        policyId: policy.id,
        reference: `cdp_direct_${unique()}`,
        email: "direct@example.test",
        amountMinor: 15000n,
        currency: "NGN",
        createdAt: dayAgo,
      },
    });
    expect(await expireUnpaidLinkPayments()).toBeGreaterThanOrEqual(1);
    const status = async (reference: string) => db.payment.findUniqueOrThrow({ where: { reference } });
    expect(await status(old.reference)).toMatchObject({ status: "failed", failureReason: EXPIRED_REASON });
    expect((await status(young.reference)).status).toBe("pending");
    expect((await status(direct.reference)).status).toBe("pending");
    // Its payment.failed event says why.
    const failed = await db.event.findMany({ where: { organizationId: actor.organizationId, type: "payment.failed" } });
    expect(failed.map((e) => [e.subject, (e.data as { failureReason: string }).failureReason])).toEqual([
      [old.reference, EXPIRED_REASON],
    ]);
    // Paying the expired one is refused; its checkout offers a new payment.
    expect((await refusal(payWithCard(old.reference, card()))).code).toBe("payment_not_pending");
  });
});
