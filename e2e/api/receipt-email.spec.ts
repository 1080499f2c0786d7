// A sandbox checkout mails the customer a receipt (with the business's receipt
// sample attached) and the business's owner a "payment received" note; a
// declined card mails nobody; turning the business's email notifications off
// silences the owner's note but never the customer's receipt. Black-box: REST,
// the hosted checkout's endpoint, and the app's local outbox (DATA_DIR/mail).
import { expect, test, type APIRequestContext } from "@playwright/test";
import { BASE_URL, problem, unique } from "../support/api";
import { pdfFile, sha256, uploadReceiptSample } from "./_files";
import { CARDS, cardBody, checkoutClient, createPolicyFor, initializeFor, ok, tenantWithClients } from "./_helpers";
import { mailboxOf, waitForMailbox, type ParsedMail } from "./_mail";

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
/** "12 March 2026": the calendar day in UTC, written out independently of the app's formatter. */
const day = (iso: string) => {
  const d = new Date(iso);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
};

const receipts = (mails: ParsedMail[]) => mails.filter((m) => m.subject.startsWith("Your receipt from "));
const paymentNotes = (mails: ParsedMail[]) => mails.filter((m) => m.subject.startsWith("Payment received: "));

/** Pays a reference on the hosted checkout (no API key), as payments.spec.ts does; answers the response. */
async function checkout(reference: string, cardNumber: string) {
  const client = await checkoutClient();
  const res = await client.post(`api/checkout/${reference}`, { data: cardBody(cardNumber) });
  return { res, dispose: () => client.dispose() };
}

async function pay(reference: string) {
  const { res, dispose } = await checkout(reference, CARDS.success);
  expect(await ok(res)).toEqual({ reference, status: "success" });
  await dispose();
}

const verify = async (client: APIRequestContext, reference: string) => ok(await client.get(`payments/verify/${reference}`));

test("a paid checkout mails the customer a receipt with the sample attached and the owner a note; a declined card mails nobody", async () => {
  test.setTimeout(120_000);
  const business = `Receipt Cover ${unique()}`;
  const t = await tenantWithClients(business);
  const policy = await createPolicyFor(t.write, { name: `Shop Shield ${unique()}`, price: "4500.00", duration: "yearly" });
  const sampleBytes = await pdfFile(`Receipt of ${business}`);
  const sample = await uploadReceiptSample(t.write, {
    file: { name: "shop-shield-receipt.pdf", mimeType: "application/pdf", buffer: sampleBytes },
    name: "Standard receipt",
  });
  expect(sample).toMatchObject({ fileName: "shop-shield-receipt.pdf", contentType: "application/pdf" });
  const customer = `buyer-${unique()}@example.test`;

  // The declined card first: the payment fails, nothing is mailed for it.
  const declined = await initializeFor(t.write, policy, customer);
  const attempt = await checkout(declined.reference, CARDS.declined);
  await problem(attempt.res, 402, "card_declined");
  await attempt.dispose();

  // Then the success card, on a new payment for the same customer.
  const payment = await initializeFor(t.write, policy, customer);
  await pay(payment.reference);
  const paid = await verify(t.read, payment.reference);
  expect(paid).toMatchObject({ status: "success", amount: "4500.00", currency: "NGN" });
  expect(paid.coverage).toMatchObject({ startsAt: expect.any(String), endsAt: expect.any(String) });

  const mailbox = await waitForMailbox(customer, (m) => receipts(m).length > 0, "a receipt");
  // One receipt: the success's. The declined payment sent none.
  expect(receipts(mailbox)).toHaveLength(1);
  const receipt = receipts(mailbox)[0]!;
  expect(receipt.subject).toBe(`Your receipt from ${business}: ${policy.name}`);
  expect(receipt.from).toContain(`${business} via Coverdesk`);
  for (const body of [receipt.text, receipt.html]) {
    expect(body).toContain(business);
    expect(body).toContain(policy.name);
    expect(body).toContain("₦4,500.00");
    expect(body).toContain(payment.reference);
    expect(body).not.toContain(declined.reference);
    expect(body).toContain(`${day(paid.coverage.startsAt)} – ${day(paid.coverage.endsAt)}`);
  }
  expect(receipt.text).toContain(`${business}'s receipt is attached.`);
  expect(receipt.text).toContain(`Reference: ${payment.reference}`);
  expect(receipt.text).toContain("Amount: ₦4,500.00");
  // The certificate: on the policyholder portal (never the PDF itself), the portal, and the public check.
  const certificateLink = `${BASE_URL}/portal/${t.organizationId}/coverages/${paid.coverage.id}`;
  expect(receipt.text).toContain(`Your certificate of insurance: ${certificateLink}`);
  expect(receipt.text).toContain(`Manage your cover: ${BASE_URL}/portal/${t.organizationId}`);
  expect(receipt.text).toContain(`Certificate number: ${paid.coverage.certificateNumber}`);
  expect(receipt.text).toContain(`Verify it at: ${BASE_URL}/verify/${paid.coverage.certificateNumber}`);
  expect(receipt.html).toContain(`href="${certificateLink}"`);
  expect(receipt.html).toContain(`href="${BASE_URL}/portal/${t.organizationId}"`);
  // The sample goes along as an attachment, byte for byte, under its own file name.
  expect(receipt.attachments).toHaveLength(1);
  const [attachment] = receipt.attachments;
  expect(attachment).toMatchObject({
    filename: "shop-shield-receipt.pdf",
    disposition: "attachment",
    contentType: "application/pdf",
  });
  expect(sha256(attachment!.content)).toBe(sha256(sampleBytes));

  // The owner heard about the payment once — the paid one, not the declined one.
  const ownerMail = await waitForMailbox(t.account.email, (m) => paymentNotes(m).length > 0, "a payment-received mail");
  expect(paymentNotes(ownerMail)).toHaveLength(1);
  const note = paymentNotes(ownerMail)[0]!;
  expect(note.subject).toBe(`Payment received: ₦4,500.00 for ${policy.name}`);
  expect(note.text).toContain(`${customer} paid ₦4,500.00 for ${policy.name}.`);
  expect(note.text).toContain(`Reference: ${payment.reference}`);
  expect(note.attachments).toHaveLength(0);
  // The owner is not sent the customer's receipt, nor the customer the owner's note.
  expect(receipts(ownerMail)).toHaveLength(0);
  expect(paymentNotes(await mailboxOf(customer))).toHaveLength(0);
});

test("with email notifications off the owner gets no payment mail, the customer still gets a receipt (no sample: nothing attached)", async () => {
  test.setTimeout(120_000);
  const business = `Quiet Cover ${unique()}`;
  const t = await tenantWithClients(business);
  const policy = await createPolicyFor(t.write, { name: `Quiet Plan ${unique()}`, price: "150.00", duration: "monthly" });
  const settings = await ok(await t.write.put("business/settings", { data: { notifications: { email: false } } }));
  expect(settings.notifications).toEqual({ email: false, sms: false, digest: false });

  const quietCustomer = `quiet-${unique()}@example.test`;
  const quiet = await initializeFor(t.write, policy, quietCustomer);
  await pay(quiet.reference);
  const paid = await verify(t.read, quiet.reference);
  const [receipt] = receipts(await waitForMailbox(quietCustomer, (m) => receipts(m).length > 0, "a receipt"));
  expect(receipt!.subject).toBe(`Your receipt from ${business}: ${policy.name}`);
  expect(receipt!.text).toContain("Amount: ₦150.00");
  expect(receipt!.text).toContain(`Reference: ${quiet.reference}`);
  expect(receipt!.text).toContain(`Coverage: ${day(paid.coverage.startsAt)} – ${day(paid.coverage.endsAt)}`);
  // No receipt sample uploaded: no attachment, and the mail does not claim one.
  expect(receipt!.attachments).toHaveLength(0);
  expect(receipt!.text).not.toContain("receipt is attached");

  // Notifications back on, a second payment: its note to the owner is the
  // barrier — the first payment's tasks were planned and sent before it.
  await ok(await t.write.put("business/settings", { data: { notifications: { email: true } } }));
  const loudCustomer = `loud-${unique()}@example.test`;
  const loud = await initializeFor(t.write, policy, loudCustomer);
  await pay(loud.reference);
  const ownerMail = await waitForMailbox(
    t.account.email,
    (m) => paymentNotes(m).some((n) => n.text.includes(loud.reference)),
    `a payment-received mail for ${loud.reference}`,
  );
  await waitForMailbox(loudCustomer, (m) => receipts(m).length > 0, "a receipt");
  // Only the second payment reached the owner.
  expect(paymentNotes(ownerMail)).toHaveLength(1);
  expect(ownerMail.filter((m) => m.text.includes(quiet.reference))).toHaveLength(0);
  expect(paymentNotes(await mailboxOf(t.account.email))).toHaveLength(1);
});
