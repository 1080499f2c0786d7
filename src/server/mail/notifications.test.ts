// Mail end to end, in-process: real events from the services, the worker
// driven by hand, and the .eml files the local outbox writes (no SMTP_URL here).
import { describe, expect, it, vi } from "vitest";
import { CreateClaimInput } from "@/lib/schemas/claims";
import { submitClaim } from "@/server/claims/service";
import { db } from "@/server/db/client";
import { UploadReceiptSampleInput } from "@/lib/schemas/documents";
import { uploadReceiptSample } from "@/server/documents/service";
import { env } from "@/server/env";
import { UploadedFile } from "@/server/files/multipart";
import { sweepExpiredRows } from "@/server/housekeeping";
import { SubmitKybInput } from "@/lib/schemas/kyb";
import { decideKyb, resubmitKyb, submitKyb } from "@/server/kyb/service";
import { payWithCard, SANDBOX_CARDS } from "@/server/payments/checkout";
import { CheckoutInput, InitializePaymentInput } from "@/lib/schemas/payments";
import { initializePayment } from "@/server/payments/service";
import { CreatePolicyInput } from "@/lib/schemas/policies";
import { createPolicy } from "@/server/policies/service";
import { UpdateSettingsInput } from "@/lib/schemas/settings";
import { updateSettings } from "@/server/settings/service";
import { runJobsOnce } from "@/server/jobs/runner";
import { addMember, createUser, ownerWithOrganization, unique } from "@/test/fixtures";
import { day } from "./templates";
import { mailsTo } from "./test-helpers";

const pdf = (label: string) =>
  Buffer.from(`%PDF-1.4\n% ${label}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`);
const upload = (field: string, fileName: string, bytes = pdf(fileName)) =>
  new UploadedFile(field, fileName, "application/pdf", bytes);

async function shop(orgName = `Lagos Cover ${unique()}`) {
  const { actor, org, user: owner } = await ownerWithOrganization(orgName);
  const { user: admin } = await addMember(org.id, "ADMIN");
  const { user: member } = await addMember(org.id, "MEMBER");
  const policy = await createPolicy(
    actor,
    CreatePolicyInput.parse({ name: "Office contents", type: "property", duration: "yearly", price: "150.00" }),
  );
  const buy = async (email = `cust-${unique()}@example.test`) => {
    const payment = await initializePayment(actor, InitializePaymentInput.parse({ amount: 150, policyId: policy.id, email }));
    const card = CheckoutInput.parse({
      cardNumber: SANDBOX_CARDS.success,
      expMonth: 12,
      expYear: new Date().getUTCFullYear() + 2,
      cvc: "123",
    });
    await payWithCard(payment.reference, card);
    return payment;
  };
  return { actor, org, owner, admin, member, policy, buy };
}

/**
 * Runs the worker until this organization's events are dispatched and its mail is sent (another worker may hold
 * some, and a pass also sends what other test files queued on the shared database: a burst of theirs takes a while
 * on a slow machine, hence the generous wait — it returns as soon as this organization's mail is out).
 */
async function deliverAll(organizationId: string) {
  await vi.waitFor(
    async () => {
      await runJobsOnce();
      expect(await db.event.count({ where: { organizationId, dispatchedAt: null } })).toBe(0);
      expect(await db.mailTask.count({ where: { organizationId, sentAt: null } })).toBe(0);
    },
    { timeout: 45_000, interval: 50 },
  );
}

describe("mail after a payment", () => {
  it("tells the owner and admins, and sends the customer a receipt with the newest receipt sample attached", async () => {
    const { actor, org, owner, admin, member, buy } = await shop();
    await uploadReceiptSample(actor, UploadReceiptSampleInput.parse({ file: upload("file", "old-receipt.pdf"), name: "Old" }));
    const current = pdf("current receipt");
    await uploadReceiptSample(
      actor,
      UploadReceiptSampleInput.parse({ file: upload("file", "receipt-template.pdf", current), name: "Current" }),
    );
    const customer = `cust-${unique()}@example.test`;
    const payment = await buy(customer);
    await deliverAll(org.id);

    for (const to of [owner.email, admin.email]) {
      const mails = await mailsTo(to);
      expect(mails).toHaveLength(1);
      const [mail] = mails;
      expect(mail!.headers.subject).toEqual(["Payment received: ₦150.00 for Office contents"]);
      expect(mail!.text).toContain(customer);
      expect(mail!.text).toContain(payment.reference);
      expect(mail!.text).toContain(`${env.APP_URL}/payments/${payment.reference}`);
      expect(mail!.html).toContain(`href="${env.APP_URL}/payments/${payment.reference}"`);
    }
    expect(await mailsTo(member.email)).toEqual([]);

    const receipts = await mailsTo(customer);
    expect(receipts).toHaveLength(1);
    const receipt = receipts[0]!;
    const coverage = await db.coverage.findFirstOrThrow({ where: { organizationId: org.id, customerEmail: customer } });
    const paid = await db.payment.findUniqueOrThrow({ where: { reference: payment.reference } });
    expect(receipt.headers.subject).toEqual([`Your receipt from ${org.name}: Office contents`]);
    expect(receipt.headers.from).toEqual([`${org.name} via Coverdesk <no-reply@coverdesk.local>`]); // words only: no quotes needed
    expect(receipt.headers["content-type"]![0]).toMatch(/^multipart\/mixed/);
    for (const part of [
      org.name,
      "Office contents",
      "₦150.00",
      payment.reference,
      `${day(coverage.startsAt)} – ${day(coverage.endsAt)}`,
      `Paid on: ${day(paid.paidAt!)}`,
      `Your certificate of insurance: ${env.APP_URL}/portal/${org.id}/coverages/${coverage.id}`,
      `Manage your cover: ${env.APP_URL}/portal/${org.id}`,
      `Certificate number: ${coverage.certificateNumber}`,
      `Verify it at: ${env.APP_URL}/verify/${coverage.certificateNumber}`,
    ]) {
      expect(receipt.text).toContain(part);
    }
    expect(receipt.html).toContain(`href="${env.APP_URL}/portal/${org.id}/coverages/${coverage.id}"`);
    expect(receipt.attachments).toHaveLength(1);
    expect(receipt.attachments[0]).toMatchObject({ filename: "receipt-template.pdf", contentType: "application/pdf" });
    expect(receipt.attachments[0]!.content.equals(current)).toBe(true);
    expect(
      await db.mailTask.findMany({ where: { organizationId: org.id }, select: { kind: true, attempts: true } }),
    ).toHaveLength(3);
  });

  it("sends the receipt without an attachment when the business has no receipt sample", async () => {
    const { org, buy } = await shop();
    const customer = `cust-${unique()}@example.test`;
    await buy(customer);
    await deliverAll(org.id);
    const [receipt, ...more] = await mailsTo(customer);
    expect(more).toEqual([]);
    expect(receipt!.attachments).toEqual([]);
    expect(receipt!.headers["content-type"]![0]).not.toMatch(/^multipart\/mixed/);
    expect(receipt!.text).toContain("₦150.00");
  });

  it("with email notifications off, sends the team nothing — the customer's receipt still goes", async () => {
    const { actor, org, owner, admin, buy } = await shop();
    await updateSettings(actor, UpdateSettingsInput.parse({ notifications: { email: false } }));
    const customer = `cust-${unique()}@example.test`;
    await buy(customer);
    await deliverAll(org.id);
    expect(await mailsTo(owner.email)).toEqual([]);
    expect(await mailsTo(admin.email)).toEqual([]);
    expect(await mailsTo(customer)).toHaveLength(1);
    expect((await db.mailTask.findMany({ where: { organizationId: org.id } })).map((t) => t.kind)).toEqual(["customer_receipt"]);
  });

  it("sends each mail once, however many workers run", async () => {
    const { org, owner, admin, buy } = await shop();
    const customer = `cust-${unique()}@example.test`;
    await buy(customer);
    await Promise.all([runJobsOnce(), runJobsOnce()]);
    await deliverAll(org.id);
    await runJobsOnce();
    for (const to of [owner.email, admin.email, customer]) expect(await mailsTo(to)).toHaveLength(1);
    const tasks = await db.mailTask.findMany({ where: { organizationId: org.id } });
    expect(tasks.map((t) => t.attempts)).toEqual([1, 1, 1]);
  });

  it("names the business in the From display name without letting it add headers", async () => {
    const { org, buy } = await shop();
    await db.organization.update({
      where: { id: org.id },
      data: { name: 'Evil "Corp"\r\nBcc: victim@example.test\r\nX-Injected: yes' },
    });
    const customer = `cust-${unique()}@example.test`;
    await buy(customer);
    await deliverAll(org.id);
    const [receipt] = await mailsTo(customer);
    const headerBlock = receipt!.raw.slice(0, receipt!.raw.indexOf("\n\n"));
    expect(headerBlock).not.toMatch(/^(bcc|x-injected):/im);
    expect(receipt!.headers.bcc).toBeUndefined();
    expect(receipt!.headers.from).toEqual([
      '"Evil \\"Corp\\" Bcc: victim@example.test X-Injected: yes via Coverdesk" <no-reply@coverdesk.local>',
    ]);
    expect(receipt!.headers.to).toEqual([customer]);
  });
});

describe("mail about claims and KYB", () => {
  it("tells the owner and admins about a submitted claim", async () => {
    const { actor, org, owner, admin, member, policy } = await shop();
    await submitClaim(
      actor,
      CreateClaimInput.parse({ policyId: policy.id, type: "theft", description: "Laptop <stolen> from the desk", amount: 5000 }),
    );
    await deliverAll(org.id);
    for (const to of [owner.email, admin.email]) {
      const [mail, ...more] = await mailsTo(to);
      expect(more).toEqual([]);
      expect(mail!.headers.subject).toEqual(["New theft claim: ₦5,000.00 on Office contents"]);
      expect(mail!.text).toContain("Type: theft");
      expect(mail!.text).toContain("Amount: ₦5,000.00");
      expect(mail!.text).toContain("Policy: Office contents");
      expect(mail!.text).toContain(`${env.APP_URL}/claims`);
      expect(mail!.html).toContain("Laptop &#60;stolen&#62; from the desk");
    }
    expect(await mailsTo(member.email)).toEqual([]);
  });

  it("tells the team a KYB rejection with its reason, then the approval", async () => {
    const { actor, org, owner, admin } = await shop();
    const reviewer = await createUser("Platform admin");
    const documents = () =>
      SubmitKybInput.parse({
        certificateOfIncorporation: upload("certificateOfIncorporation", "cac.pdf"),
        taxCertificate: upload("taxCertificate", "tin.pdf"),
      });
    await submitKyb(actor, documents());
    await decideKyb(reviewer.id, org.id, { status: "rejected", reason: "The tax certificate is unreadable & <blurred>" });
    await deliverAll(org.id);
    for (const to of [owner.email, admin.email]) {
      const [mail, ...more] = await mailsTo(to);
      expect(more).toEqual([]); // submitting sends nothing
      expect(mail!.headers.subject).toEqual(["Your business verification was not approved"]);
      expect(mail!.text).toContain("Reason: The tax certificate is unreadable & <blurred>");
      expect(mail!.text).toContain(`${env.APP_URL}/kyb`);
      expect(mail!.html).toContain("unreadable &#38; &#60;blurred&#62;");
    }

    await resubmitKyb(actor, documents());
    await decideKyb(reviewer.id, org.id, { status: "approved" });
    await deliverAll(org.id);
    const mails = await mailsTo(owner.email);
    expect(mails.map((m) => m.headers.subject?.[0])).toEqual([
      "Your business verification was not approved",
      "Your business is verified",
    ]);
    expect(mails[1]!.text).toContain(org.name);
    expect(await mailsTo(admin.email)).toHaveLength(2);
  });
});

describe("sweeping mail tasks", () => {
  it("deletes sent tasks older than 30 days and keeps the rest, given-up ones included", async () => {
    const { org } = await ownerWithOrganization();
    const now = new Date();
    const daysAgo = (n: number) => new Date(now.getTime() - n * 86_400_000);
    const base = { organizationId: org.id, kind: "kyb_approved", sourceId: `evt_${unique()}`, data: {} };
    await db.mailTask.createMany({
      data: [
        { ...base, recipient: "old-sent@example.test", sentAt: daysAgo(31), createdAt: daysAgo(31) },
        { ...base, recipient: "new-sent@example.test", sentAt: daysAgo(1), createdAt: daysAgo(1) },
        { ...base, recipient: "given-up@example.test", attempts: 6, lastError: "ECONNREFUSED", createdAt: daysAgo(40) },
      ],
    });
    await sweepExpiredRows(now);
    const left = await db.mailTask.findMany({ where: { organizationId: org.id }, orderBy: { recipient: "asc" } });
    expect(left.map((t) => t.recipient)).toEqual(["given-up@example.test", "new-sent@example.test"]);
  });
});
