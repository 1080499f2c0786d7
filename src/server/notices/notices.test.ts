// Notices end to end, in-process: real services make the events, the job
// runner plans and sends them, and what leaves is read where it lands — the
// .eml files of the mail outbox and the JSON files of the SMS outbox (no SMS
// provider is configured here, and test mode always writes files).
import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { checkTemplate, defaultTemplate, fitSms, renderNotice, type NoticeKind } from "@/lib/notice-templates";
import { smsSegments } from "@/lib/sms";
import { CreateClaimInput, UpdateClaimStatusInput } from "@/lib/schemas/claims";
import { NotificationTemplateInput } from "@/lib/schemas/notifications";
import { CheckoutInput, InitializePaymentInput } from "@/lib/schemas/payments";
import { CreatePolicyInput } from "@/lib/schemas/policies";
import { UpdateSettingsInput } from "@/lib/schemas/settings";
import type { Actor } from "@/server/actor";
import { submitClaim, updateClaimStatus } from "@/server/claims/service";
import { db } from "@/server/db/client";
import { env } from "@/server/env";
import { smsDir } from "@/server/integrations/sms";
import { runJobsOnce } from "@/server/jobs/runner";
import { mailsTo } from "@/server/mail/test-helpers";
import { planMailTasks, DIGEST_AFTER } from "@/server/mail/plan";
import { payWithCard, SANDBOX_CARDS } from "@/server/payments/checkout";
import { initializePayment } from "@/server/payments/service";
import { createPolicy } from "@/server/policies/service";
import { updateSettings } from "@/server/settings/service";
import { addMember, codeOf, ownerWithOrganization, unique } from "@/test/fixtures";
import { profilePhone, startPhoneVerification, verifyPhone } from "./phone";
import { resetTemplate, setPortalContact, updateTemplate } from "./service";

interface SmsFile {
  to: string;
  body: string;
  kind: string;
  livemode: boolean;
  createdAt: string;
}

/** Every SMS file written to `to`, oldest first. */
async function smsTo(to: string): Promise<SmsFile[]> {
  const dir = smsDir();
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const all = await Promise.all(
    names.filter((n) => n.endsWith(".json")).map(async (n) => JSON.parse(await fs.readFile(path.join(dir, n), "utf8")) as SmsFile),
  );
  return all.filter((m) => m.to === to).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** A Nigerian mobile number no other test uses. */
const phone = () => `+23480${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;

async function deliverAll(organizationId: string) {
  await vi.waitFor(
    async () => {
      await runJobsOnce();
      expect(await db.event.count({ where: { organizationId, dispatchedAt: null } })).toBe(0);
      expect(await db.mailTask.count({ where: { organizationId, sentAt: null, failedAt: null } })).toBe(0);
    },
    { timeout: 45_000, interval: 50 },
  );
}

async function shop({ sms = true }: { sms?: boolean } = {}) {
  const { actor, org, user: owner } = await ownerWithOrganization(`Ikeja Cover ${unique()}`);
  if (sms) await updateSettings(actor, UpdateSettingsInput.parse({ notifications: { sms: true } }));
  const policy = await createPolicy(
    actor,
    CreatePolicyInput.parse({ name: "Motor Third Party", type: "auto", duration: "yearly", price: "150.00" }),
  );
  const buy = async (email: string, extra: { name?: string; phone?: string } = {}, as: Actor = actor) => {
    const payment = await initializePayment(as, InitializePaymentInput.parse({ amount: 150, policyId: policy.id, email, ...extra }));
    await payWithCard(
      payment.reference,
      CheckoutInput.parse({ cardNumber: SANDBOX_CARDS.success, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: "123" }),
    );
    return payment;
  };
  return { actor, org, owner, policy, buy };
}

describe("templates", () => {
  const base = (kind: NoticeKind) => defaultTemplate(kind);

  it("refuses what is not a plain placeholder, an unknown one, a text message without its link, and too much text", () => {
    const t = base("claim_approved");
    const problem = (patch: Partial<typeof t>) => checkTemplate("claim_approved", { ...t, ...patch });
    expect(problem({ emailBody: "{{#lambda}}hi{{/lambda}}" })).toEqual([
      { path: "emailBody", message: expect.stringContaining("{{#lambda}} is not allowed") },
    ]);
    expect(problem({ emailSubject: "{{{customerName}}}" })[0]!.message).toContain("not allowed");
    expect(problem({ emailBody: "{{> partial}}" })[0]!.message).toContain("not allowed");
    expect(problem({ emailBody: "Dear {{nope}}" })).toEqual([{ path: "emailBody", message: expect.stringContaining("Unknown placeholder {{nope}}") }]);
    expect(problem({ emailBody: "Dear {{customerName" })[0]!.message).toContain("Check the braces");
    expect(problem({ smsBody: "Your claim was approved" })).toEqual([
      { path: "smsBody", message: "The text message must include the link {{portalLink}}" },
    ]);
    expect(problem({ smsBody: `${"x".repeat(290)} {{portalLink}}` })[0]!.message).toContain("Too long for a text message");
    expect(problem({ emailBody: "é".repeat(5000) })).toEqual([]);
    expect(problem({ emailBody: "é".repeat(5001) })[0]!.message).toBe("Keep it to 5000 characters (it has 5001)");
    // HTML is words like any other: shown as written, escaped in the email's HTML.
    expect(problem({ emailBody: "<b>Hello</b> {{customerName}}" })).toEqual([]);
    for (const kind of ["receipt", "claim_received", "renewal_failed"] as const) expect(checkTemplate(kind, base(kind))).toEqual([]);
  });

  it("keeps a text message to 2 segments: a Yoruba name shortened or plain, never the link", () => {
    const link = `${env.APP_URL}/portal/cmabcdefghijklmnopqrstuvw/claims/cmzyxwvutsrqponmlkjihgfed`;
    const yoruba = "Adéwálé Ọlọ́runfẹ́mi Oyèláràn-Ògúnṣọlá";
    const values = { customerName: yoruba, businessName: "Ìbàdàn Mutual Assurance Company of Nigeria", policyName: "Motor", amount: "₦100,000.00", portalLink: link };
    const body = fitSms("Hello {{customerName}}, {{businessName}} approved {{amount}} on {{policyName}}. {{portalLink}}", values, ["portalLink"]);
    const counted = smsSegments(body);
    expect(counted.segments).toBeLessThanOrEqual(2);
    expect(body.endsWith(link)).toBe(true);
    // Short enough as it is: sent as UCS-2 with the name whole.
    const short = fitSms("{{customerName}}: {{portalLink}}", { customerName: "Ọlọ́run", portalLink: "https://x.ng/p" }, ["portalLink"]);
    expect(short).toBe("Ọlọ́run: https://x.ng/p");
    expect(smsSegments(short).encoding).toBe("UCS-2");
  });

  it("renders values as text: a <script> in a name is escaped in the email and plain in the SMS", () => {
    const words = renderNotice("claim_paid", base("claim_paid"), {
      customerName: "<script>alert(1)</script>",
      businessName: "B",
      policyName: "P",
      amount: "₦1.00",
      portalLink: "https://x.ng/p",
    });
    expect(words.paragraphs[0]).toBe("Hello <script>alert(1)</script>,");
    expect(words.sms).toContain("https://x.ng/p");
  });

  it("saves a business's words, refuses a bad one with the field (nothing saved), and restores the default", async () => {
    const { actor, org } = await ownerWithOrganization();
    const input = NotificationTemplateInput.parse({
      emailSubject: "Good news, {{customerName}}",
      emailBody: "We approved {{amount}}.",
      smsBody: "Approved {{amount}} {{portalLink}}",
    });
    const saved = await updateTemplate(actor, "claim_approved", input);
    expect(saved).toMatchObject({ kind: "claim_approved", customized: true, emailSubject: "Good news, {{customerName}}" });
    const refused = await updateTemplate(actor, "claim_approved", { ...input, emailSubject: "{{nope}}" }).catch((e) => e);
    expect(refused.code).toBe("validation_failed");
    expect(refused.extra.errors).toEqual([{ path: "emailSubject", message: expect.stringContaining("Unknown placeholder {{nope}}") }]);
    expect(await db.notificationTemplate.findFirstOrThrow({ where: { organizationId: org.id } })).toMatchObject({
      emailSubject: "Good news, {{customerName}}",
    });
    expect(await resetTemplate(actor, "claim_approved")).toMatchObject({ customized: false, emailSubject: defaultTemplate("claim_approved").emailSubject });
    expect(await db.notificationTemplate.count({ where: { organizationId: org.id } })).toBe(0);
  });

  it("is the owner's and admins' to change; a member is refused", async () => {
    const { org } = await ownerWithOrganization();
    const { actor: member } = await addMember(org.id, "MEMBER");
    expect(await codeOf(updateTemplate(member, "refund", defaultTemplate("refund")))).toBe("forbidden");
  });
});

describe("policyholder notices", () => {
  it("tell the claimant by email and SMS in the business's words: received, approved with the amount, rejected with the reason", async () => {
    const { actor, org, policy, buy } = await shop();
    const email = `ada-${unique()}@example.test`;
    const mobile = phone();
    await buy(email, { name: "Adaeze Okafor", phone: mobile });
    await updateTemplate(actor, "claim_approved", {
      emailSubject: "Good news, {{customerName}}",
      emailBody: "We approved {{amount}} of your {{claimedAmount}} claim.",
      smsBody: "{{businessName}} approved {{amount}}, {{customerName}}. {{portalLink}}",
    });
    const claim = await submitClaim(
      actor,
      CreateClaimInput.parse({ policyId: policy.id, type: "accident", description: "Rear-ended", amount: 120, email }),
    );
    await updateClaimStatus(actor, claim.id, UpdateClaimStatusInput.parse({ status: "under_review" }));
    await updateClaimStatus(actor, claim.id, UpdateClaimStatusInput.parse({ status: "approved", approvedAmount: 100 }));
    const other = await submitClaim(
      actor,
      CreateClaimInput.parse({ policyId: policy.id, type: "theft", description: "Stolen", amount: 50, email }),
    );
    await updateClaimStatus(actor, other.id, UpdateClaimStatusInput.parse({ status: "under_review" }));
    await updateClaimStatus(actor, other.id, UpdateClaimStatusInput.parse({ status: "rejected", note: "Not covered: <b>theft</b>" }));
    await deliverAll(org.id);

    const mails = await mailsTo(email);
    // Sent in batches side by side: the order of arrival is not the order of the events.
    expect(mails.map((m) => m.headers.subject![0]).sort()).toEqual(
      [
        `Your receipt from ${org.name}: Motor Third Party`,
        "We received your claim on Motor Third Party",
        "Good news, Adaeze Okafor",
        "We received your claim on Motor Third Party",
        "Your claim on Motor Third Party was not approved",
      ].sort(),
    );
    const bySubject = (subject: string) => mails.find((m) => m.headers.subject![0] === subject)!;
    const rejected = bySubject("Your claim on Motor Third Party was not approved");
    expect(rejected.text).toContain("Reason: Not covered: <b>theft</b>");
    expect(rejected.html).toContain("Not covered: &#60;b&#62;theft&#60;/b&#62;");
    expect(rejected.html).not.toContain("<b>theft");
    const approved = bySubject("Good news, Adaeze Okafor");
    expect(approved.text).toContain("We approved ₦100.00 of your ₦120.00 claim.");
    expect(approved.text).toContain(`${env.APP_URL}/portal/${org.id}/claims/${claim.id}`);

    const texts = await smsTo(mobile);
    expect(texts.map((t) => t.kind).sort()).toEqual(["claim_approved", "claim_received", "claim_received", "claim_rejected", "customer_receipt"]);
    expect(texts.find((t) => t.kind === "claim_approved")!.body).toBe(`${org.name} approved NGN 100.00, Adaeze Okafor. ${env.APP_URL}/portal/${org.id}/claims/${claim.id}`);
    expect(texts.every((t) => t.livemode && !t.body.startsWith("[Test]") && smsSegments(t.body).segments <= 2)).toBe(true);
    // The customer's page lists them: both channels, sent, with what they said.
    const listed = await db.mailTask.findMany({ where: { organizationId: org.id, customerEmail: email } });
    expect(listed.filter((m) => m.channel === "sms")).toHaveLength(5);
    expect(listed.find((m) => m.kind === "claim_approved" && m.channel === "email")!.preview).toBe("Good news, Adaeze Okafor");
  });

  it("go by email only: with SMS off, without a phone, or after the policyholder turned texts off", async () => {
    const off = await shop({ sms: false });
    const withPhone = `p-${unique()}@example.test`;
    const mobileOff = phone();
    await off.buy(withPhone, { phone: mobileOff });
    const on = await shop();
    const noPhone = `n-${unique()}@example.test`;
    await on.buy(noPhone);
    const optedOut = `o-${unique()}@example.test`;
    const mobileOut = phone();
    await on.buy(optedOut, { phone: mobileOut });
    await deliverAll(on.org.id);
    await setPortalContact({ organizationId: on.org.id, email: optedOut }, { smsOptOut: true });
    await on.buy(optedOut);
    await deliverAll(off.org.id);
    await deliverAll(on.org.id);
    expect(await db.mailTask.count({ where: { organizationId: { in: [off.org.id, on.org.id] }, channel: "sms" } })).toBe(1);
    // The one SMS: the opted-out customer's first receipt, before they turned texts off.
    expect((await smsTo(mobileOut)).map((t) => t.kind)).toEqual(["customer_receipt"]);
    expect(await smsTo(mobileOff)).toEqual([]);
    expect(await mailsTo(noPhone)).toHaveLength(1);
  });

  it("in test mode write a [Test] SMS file to the phone the payment carried", async () => {
    const { actor, org, policy } = await shop();
    const twin = await db.organization.findUniqueOrThrow({ where: { liveOrganizationId: org.id } });
    const test: Actor = { ...actor, organizationId: twin.id, accountId: org.id, livemode: false };
    const testPolicy = await createPolicy(test, CreatePolicyInput.parse({ name: "Test cover", type: "auto", duration: "yearly", price: "10.00" }));
    const mobile = phone();
    const payment = await initializePayment(
      test,
      InitializePaymentInput.parse({ amount: 10, policyId: testPolicy.id, email: `t-${unique()}@example.test`, phone: mobile }),
    );
    await payWithCard(
      payment.reference,
      CheckoutInput.parse({ cardNumber: SANDBOX_CARDS.success, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: "123" }),
    );
    expect(policy).toBeTruthy();
    await deliverAll(twin.id);
    const [text] = await smsTo(mobile);
    expect(text).toMatchObject({ to: mobile, kind: "customer_receipt", livemode: false });
    expect(text!.body).toMatch(/^\[Test\] /);
    expect(text!.body).toContain(`${env.APP_URL}/portal/${twin.id}/coverages/`);
  });
});

describe("the team's notices", () => {
  it("go by SMS only to a verified phone, after the code it was sent", async () => {
    const { actor, org, owner, buy } = await shop();
    const { user: admin } = await addMember(org.id, "ADMIN");
    const mobile = phone();
    await startPhoneVerification(owner.id, mobile);
    await startPhoneVerification(admin.id, phone()); // never verified
    await deliverAll(org.id);
    const [code] = await smsTo(mobile);
    expect(code!.kind).toBe("phone_code");
    const digits = /^(\d{6}) is your Coverdesk code/.exec(code!.body)![1]!;
    // Sent, and what it said is not kept: the code lives only as an HMAC.
    const task = await db.mailTask.findFirstOrThrow({ where: { kind: "phone_code", recipient: mobile } });
    expect(task.preview).not.toContain(digits);
    expect(await codeOf(verifyPhone(owner.id, digits === "000000" ? "111111" : "000000"))).toBe("validation_failed");
    expect(await verifyPhone(owner.id, digits)).toEqual({ phone: mobile, pendingPhone: null });
    expect(await codeOf(verifyPhone(owner.id, digits))).toBe("validation_failed"); // used
    expect(await profilePhone(admin.id)).toMatchObject({ phone: null });

    await buy(`c-${unique()}@example.test`);
    await deliverAll(org.id);
    const alerts = (await smsTo(mobile)).filter((t) => t.kind === "payment_received");
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.body).toContain(`${org.name} received NGN 150.00`);
    expect(smsSegments(alerts[0]!.body).encoding, JSON.stringify(alerts[0]!.body)).toBe("GSM-7");
    expect(await db.mailTask.count({ where: { organizationId: org.id, kind: "payment_received", channel: "sms" } })).toBe(1);
    expect(actor).toBeTruthy();
  });

  it("above 20 payments a day, the rest go in one digest per recipient the next morning", async () => {
    const { actor, org } = await shop({ sms: false });
    await updateSettings(actor, UpdateSettingsInput.parse({ notifications: { digest: true } }));
    const events = Array.from({ length: 500 }, (_, i) => ({
      id: `evt_digest_${unique()}_${i}`,
      organizationId: org.id,
      type: "payment.completed",
      data: { reference: `r${i}`, amount: "1.00", currency: "NGN", policyId: "p", email: `d${i}@example.test`, paidAt: null },
    }));
    // Dispatched in batches, as the runner does.
    for (let i = 0; i < events.length; i += 50) {
      await db.$transaction((tx) => planMailTasks(tx, events.slice(i, i + 50)));
    }
    const team = await db.mailTask.groupBy({
      by: ["kind"],
      where: { organizationId: org.id, kind: { in: ["payment_received", "payment_digest"] } },
      _count: { _all: true },
    });
    expect(Object.fromEntries(team.map((g) => [g.kind, g._count._all]))).toEqual({ payment_received: DIGEST_AFTER, payment_digest: 1 });
    const digest = await db.mailTask.findFirstOrThrow({ where: { organizationId: org.id, kind: "payment_digest" } });
    expect(digest.runAt.getTime()).toBeGreaterThan(Date.now());
    // Every customer still gets their receipt.
    expect(await db.mailTask.count({ where: { organizationId: org.id, kind: "customer_receipt" } })).toBe(500);
    // Made-up payments: their notices are not sent (the runner of other tests would).
    await db.mailTask.deleteMany({ where: { organizationId: org.id } });
  });
});
