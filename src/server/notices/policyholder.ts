// A policyholder notice as its task is sent: the template it is worded by
// (the business's own, else the default), the values of its placeholders and
// what the email shows around the words (details, the button, the footer) —
// read now, always within the task's own organization. The email
// (src/server/mail/compose.ts) and the SMS (src/server/mail/compose-sms.ts)
// of one notice are made from the same values.
import type { MailTask } from "@/generated/prisma/client";
import { displayMoney, formatMinor } from "@/lib/money";
import { defaultTemplate, type NoticeKind, type NoticeTemplate } from "@/lib/notice-templates";
import { db } from "@/server/db/client";
import { currentReceiptSample } from "@/server/documents/service";
import { env } from "@/server/env";
import { storageNamed } from "@/server/files/storage";
import type { Email } from "@/server/integrations/email";
import { logger } from "@/server/logger";
import { taskData, type MailKind } from "@/server/mail/kinds";
import { day } from "@/server/mail/templates";
import { renewalAmount } from "@/server/renewals/pricing";

export interface PolicyholderNotice {
  template: NoticeKind;
  values: Record<string, string>;
  /** The email's button. */
  action: { label: string; url: string };
  links?: { label: string; url: string }[];
  details: { label: string; value: string }[];
  /** Said after the business's words, whatever they are (the receipt's attachment, the certificate). */
  extra?: string[];
  footer: string;
  attachments?: Email["attachments"];
}

/** The mail kinds that are policyholder notices, and so are worded by a template and can go by SMS. */
export const POLICYHOLDER_KINDS = [
  "customer_receipt",
  "claim_received",
  "claim_approved",
  "claim_rejected",
  "claim_paid",
  "refund",
  "cancellation",
  "renewal_reminder",
  "renewal_failed",
] as const satisfies readonly MailKind[];
export type PolicyholderKind = (typeof POLICYHOLDER_KINDS)[number];
export const isPolicyholderKind = (kind: string): kind is PolicyholderKind =>
  (POLICYHOLDER_KINDS as readonly string[]).includes(kind);

const money = (amount: string, currency: string) => displayMoney(amount, currency);
const minor = (value: bigint, currency: string) => money(formatMinor(value, currency), currency);
const dataOf = taskData;

export const portalLink = (organizationId: string, path = "") =>
  `${env.APP_URL}/portal/${encodeURIComponent(organizationId)}${path}`;
const daysWord = (n: number) => (n === 1 ? "1 day" : `${n} days`);

/** The account whose settings and templates a test twin follows. */
export async function accountIdOf(organizationId: string): Promise<string> {
  const org = await db.organization.findUnique({ where: { id: organizationId }, select: { liveOrganizationId: true } });
  return org?.liveOrganizationId ?? organizationId;
}

/** The business's words for a notice, else the default. */
export async function templateOf(organizationId: string, kind: NoticeKind): Promise<NoticeTemplate> {
  const accountId = await accountIdOf(organizationId);
  const row = await db.notificationTemplate.findUnique({
    where: { organizationId_kind: { organizationId: accountId, kind } },
    select: { emailSubject: true, emailBody: true, smsBody: true },
  });
  return row ?? defaultTemplate(kind);
}

async function businessName(organizationId: string) {
  const org = await db.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { name: true } });
  return org.name;
}

/** A policy's name within its organization ("your policy" once it is gone). */
export async function policyName(organizationId: string, policyId: string) {
  const policy = await db.policy.findFirst({ where: { id: policyId, organizationId }, select: { name: true } });
  return policy?.name ?? "your policy";
}

/** The name the policyholder gave (their customer record, else a cover's), or "there" ("Hello there"). */
async function customerName(organizationId: string, email: string | null): Promise<string> {
  if (!email) return "there";
  const customer = await db.customer.findUnique({
    where: { organizationId_email: { organizationId, email } },
    select: { name: true },
  });
  if (customer?.name) return customer.name;
  const cover = await db.coverage.findFirst({
    where: { organizationId, customerEmail: email, customerName: { not: null } },
    select: { customerName: true },
  });
  return cover?.customerName ?? "there";
}

/** The coverage as this payment left it: the policy event settled with it, else the coverage row as it is now. */
async function coverageAfter(organizationId: string, payment: { reference: string; policyId: string; email: string }) {
  const event = await db.event.findFirst({
    where: { organizationId, subject: payment.reference, type: { in: ["policy.purchased", "policy.renewed"] } },
    select: { data: true },
  });
  const snapshot = (event?.data as { coverage?: { startsAt?: string; endsAt?: string } } | null)?.coverage;
  if (snapshot?.startsAt && snapshot.endsAt) return { startsAt: snapshot.startsAt, endsAt: snapshot.endsAt };
  const row = await db.coverage.findFirst({
    where: { organizationId, policyId: payment.policyId, customerEmail: payment.email },
    select: { startsAt: true, endsAt: true },
  });
  return row ?? { startsAt: null, endsAt: null };
}

/** The business's current receipt sample as an attachment; none when it has none (or its bytes are gone). */
async function receiptAttachment(organizationId: string): Promise<Email["attachments"]> {
  const sample = await currentReceiptSample(organizationId);
  if (!sample) return [];
  const stream = await storageNamed(sample.file.backend).get(sample.file.storageKey);
  if (!stream) {
    logger.warn({ organizationId, fileId: sample.file.id }, "the receipt sample's bytes are gone; the receipt goes without it");
    return [];
  }
  const content = Buffer.from(await new Response(stream).arrayBuffer());
  return [{ filename: sample.file.fileName, content, contentType: sample.file.contentType }];
}

async function receipt(task: MailTask, business: string, withAttachment: boolean): Promise<PolicyholderNotice> {
  const d = dataOf("customer_receipt", task);
  const org = task.organizationId;
  const payment = await db.payment.findFirst({ where: { reference: d.reference, organizationId: org } });
  const [policy, coverage, attachments, name] = await Promise.all([
    policyName(org, d.policyId),
    coverageAfter(org, d),
    withAttachment ? receiptAttachment(org) : Promise.resolve([]),
    customerName(org, d.email),
  ]);
  const cover = payment?.coverageId
    ? await db.coverage.findFirst({ where: { id: payment.coverageId, organizationId: org }, select: { id: true, certificateNumber: true } })
    : null;
  const paid = money(d.amount, d.currency);
  const portal = portalLink(org);
  // The certificate names the policyholder, so the notice links to the portal
  // (sign in with a code) rather than to the PDF itself.
  const certificate = cover ? portalLink(org, `/coverages/${encodeURIComponent(cover.id)}`) : null;
  const verify = cover ? `${env.APP_URL}/verify/${encodeURIComponent(cover.certificateNumber)}` : null;
  const paidAt = payment?.paidAt ?? d.paidAt;
  return {
    template: "receipt",
    values: {
      customerName: name,
      businessName: business,
      policyName: policy,
      amount: paid,
      reference: d.reference,
      coverageEnds: coverage.endsAt ? day(coverage.endsAt) : "",
      portalLink: certificate ?? portal,
    },
    extra: [
      ...(attachments?.length ? [`${business}'s receipt is attached.`] : []),
      ...(cover
        ? [
            `Your certificate of insurance is ready: sign in with this email address to download it. Anyone who needs proof of your cover can check it at ${verify}.`,
          ]
        : []),
    ],
    details: [
      { label: "Business", value: business },
      { label: "Policy", value: policy },
      { label: "Amount", value: paid },
      { label: "Reference", value: d.reference },
      ...(coverage.startsAt && coverage.endsAt ? [{ label: "Coverage", value: `${day(coverage.startsAt)} – ${day(coverage.endsAt)}` }] : []),
      ...(paidAt ? [{ label: "Paid on", value: day(paidAt) }] : []),
      ...(cover && verify
        ? [
            { label: "Certificate number", value: cover.certificateNumber },
            { label: "Verify it at", value: verify },
          ]
        : []),
    ],
    action: certificate ? { label: "Your certificate of insurance", url: certificate } : { label: "Your policyholder portal", url: portal },
    ...(certificate ? { links: [{ label: "Manage your cover", url: portal }] } : {}),
    footer: `${business} sent you this receipt through Coverdesk. Keep it for your records; quote the reference if you contact them.`,
    attachments,
  };
}

const CLAIM_TEMPLATE = {
  claim_received: "claim_received",
  claim_approved: "claim_approved",
  claim_rejected: "claim_rejected",
  claim_paid: "claim_paid",
} as const;

async function claimNotice(task: MailTask, kind: keyof typeof CLAIM_TEMPLATE, business: string): Promise<PolicyholderNotice | null> {
  const { claimId } = dataOf(kind, task);
  const org = task.organizationId;
  const claim = await db.claim.findFirst({
    where: { id: claimId, organizationId: org },
    select: {
      id: true,
      type: true,
      status: true,
      amountMinor: true,
      approvedAmountMinor: true,
      currency: true,
      customerEmail: true,
      policy: { select: { name: true } },
      history: kind === "claim_rejected" ? { where: { toStatus: "rejected" }, orderBy: { createdAt: "desc" }, take: 1, select: { note: true } } : false,
    },
  });
  if (!claim) return null; // gone since (its organization left): nothing to say
  const claimed = minor(claim.amountMinor, claim.currency);
  const approved = claim.approvedAmountMinor === null ? claimed : minor(claim.approvedAmountMinor, claim.currency);
  const link = portalLink(org, `/claims/${encodeURIComponent(claim.id)}`);
  const reason = (claim.history as { note: string | null }[] | undefined)?.[0]?.note?.trim() || "no reason was given";
  const amount = kind === "claim_approved" || kind === "claim_paid" ? approved : claimed;
  return {
    template: CLAIM_TEMPLATE[kind],
    values: {
      customerName: await customerName(org, claim.customerEmail),
      businessName: business,
      policyName: claim.policy.name,
      amount,
      claimedAmount: claimed,
      claimType: claim.type,
      claimStatus: kind.replace("claim_", "").replace("received", "submitted"),
      reason,
      portalLink: link,
    },
    details: [
      { label: "Policy", value: claim.policy.name },
      { label: "Type", value: claim.type },
      { label: "Claimed", value: claimed },
      ...(kind === "claim_approved" || kind === "claim_paid" ? [{ label: kind === "claim_paid" ? "Paid" : "Approved", value: approved }] : []),
      ...(kind === "claim_rejected" ? [{ label: "Reason", value: reason }] : []),
    ],
    action: { label: "See your claim", url: link },
    footer: `${business} sent you this through Coverdesk about a claim on your cover.`,
  };
}

async function refundNotice(task: MailTask, business: string): Promise<PolicyholderNotice> {
  const d = dataOf("refund", task);
  const org = task.organizationId;
  const payment = await db.payment.findFirst({
    where: { reference: d.paymentReference, organizationId: org },
    select: { email: true, policyId: true },
  });
  const refunded = money(d.amount, d.currency);
  const link = portalLink(org, `/payments/${encodeURIComponent(d.paymentReference)}`);
  const policy = payment ? await policyName(org, payment.policyId) : "your policy";
  return {
    template: "refund",
    values: {
      customerName: await customerName(org, payment?.email ?? null),
      businessName: business,
      policyName: policy,
      amount: refunded,
      reference: d.paymentReference,
      portalLink: link,
    },
    details: [
      { label: "Refunded", value: refunded },
      { label: "Payment", value: d.paymentReference },
      { label: "Policy", value: policy },
    ],
    action: { label: "See the payment", url: link },
    footer: `${business} sent you this through Coverdesk about a payment you made.`,
  };
}

async function cancellationNotice(task: MailTask, business: string): Promise<PolicyholderNotice | null> {
  const d = dataOf("cancellation", task);
  const org = task.organizationId;
  const cover = await db.coverage.findFirst({
    where: { id: d.id, organizationId: org },
    select: { id: true, customerEmail: true, cancelledAt: true, cancellationReason: true, policy: { select: { name: true } } },
  });
  if (!cover) return null;
  const link = portalLink(org, `/coverages/${encodeURIComponent(cover.id)}`);
  const on = day(cover.cancelledAt ?? d.cancelledAt ?? new Date());
  return {
    template: "cancellation",
    values: {
      customerName: await customerName(org, cover.customerEmail),
      businessName: business,
      policyName: cover.policy.name,
      cancelledOn: on,
      portalLink: link,
    },
    details: [
      { label: "Policy", value: cover.policy.name },
      { label: "Cancelled on", value: on },
      ...(cover.cancellationReason ? [{ label: "Reason", value: cover.cancellationReason }] : []),
    ],
    action: { label: "See your cover", url: link },
    footer: `${business} sent you this through Coverdesk about your cover.`,
  };
}

async function reminderNotice(task: MailTask, business: string): Promise<PolicyholderNotice> {
  const d = dataOf("renewal_reminder", task);
  const org = task.organizationId;
  const daysLeft = Math.max(0, Math.ceil((new Date(d.endsAt).getTime() - Date.now()) / 86_400_000));
  const when = daysLeft <= 0 ? "today" : `in ${daysWord(daysLeft)}`;
  // An auto-renewing cover (as it is now, for the period the reminder is about) says what will be charged.
  const cover = await db.coverage.findFirst({
    where: { id: d.coverageId, organizationId: org },
    select: {
      autoRenew: true,
      cardLast4: true,
      endsAt: true,
      customerEmail: true,
      premiumMinor: true,
      nextPremiumMinor: true,
      nextPremiumFrom: true,
      policy: { select: { name: true, priceMinor: true, currency: true, isActive: true } },
    },
  });
  const policy = cover?.policy.name ?? (await policyName(org, d.policyId));
  const link = portalLink(org, `/coverages/${encodeURIComponent(d.coverageId)}`);
  const common = {
    customerName: await customerName(org, cover?.customerEmail ?? task.customerEmail),
    businessName: business,
    policyName: policy,
    endsWhen: when,
    portalLink: link,
  };
  const ends = day(d.endsAt);
  if (cover?.autoRenew && cover.cardLast4 && cover.policy.isActive && cover.endsAt.toISOString() === d.endsAt) {
    const charge = minor(renewalAmount({ ...cover, priceMinor: cover.policy.priceMinor }), cover.policy.currency);
    return {
      template: "auto_renewal_reminder",
      values: { ...common, renewsOn: ends, amount: charge, cardLast4: cover.cardLast4 },
      details: [
        { label: "Business", value: business },
        { label: "Policy", value: policy },
        { label: "Renews on", value: ends },
        { label: "Amount", value: charge },
        { label: "Card", value: `•••• ${cover.cardLast4}` },
      ],
      action: { label: "Manage your cover", url: link },
      footer: `${business} sent you this reminder through Coverdesk because your cover renews automatically.`,
    };
  }
  return {
    template: "renewal_reminder",
    values: { ...common, endsOn: ends },
    details: [
      { label: "Business", value: business },
      { label: "Policy", value: policy },
      { label: "Cover ends", value: ends },
      { label: "Days left", value: String(daysLeft) },
    ],
    action: { label: "Renew your cover", url: link },
    footer: `${business} sent you this reminder through Coverdesk because your cover is about to end. If you have already renewed, you can ignore it.`,
  };
}

async function renewalFailedNotice(task: MailTask, business: string): Promise<PolicyholderNotice> {
  const d = dataOf("renewal_failed", task);
  const org = task.organizationId;
  const link = `${env.APP_URL}/pay/${encodeURIComponent(d.reference)}`;
  const until = d.graceEndsAt ? day(d.graceEndsAt) : "";
  const policy = await policyName(org, d.policyId);
  const charge = money(d.amount, d.currency);
  return {
    template: "renewal_failed",
    values: {
      customerName: await customerName(org, task.customerEmail),
      businessName: business,
      policyName: policy,
      amount: charge,
      coveredUntil: until || "today",
      payLink: link,
    },
    extra: [
      ...(d.reason ? [`The card issuer's answer: ${d.reason}.`] : []),
      d.nextAttemptAt ? `We will try your card again on ${day(d.nextAttemptAt)}.` : "We will not try your card again.",
    ],
    details: [
      { label: "Policy", value: policy },
      { label: "Amount", value: charge },
      { label: "Attempt", value: `${d.attempt} of 4` },
      ...(until ? [{ label: "Covered until", value: until }] : []),
      ...(d.nextAttemptAt ? [{ label: "Next try", value: day(d.nextAttemptAt) }] : []),
    ],
    action: { label: "Pay now", url: link },
    footer: `${business} sent you this through Coverdesk because your cover renews automatically. You can turn automatic renewal off in your policyholder portal.`,
  };
}

/** The notice of a policyholder task; null when what it is about is gone. */
export async function policyholderNotice(
  task: MailTask,
  { withAttachments = true }: { withAttachments?: boolean } = {},
): Promise<PolicyholderNotice | null> {
  const business = await businessName(task.organizationId);
  const kind = task.kind as PolicyholderKind;
  switch (kind) {
    case "customer_receipt":
      return receipt(task, business, withAttachments);
    case "claim_received":
    case "claim_approved":
    case "claim_rejected":
    case "claim_paid":
      return claimNotice(task, kind, business);
    case "refund":
      return refundNotice(task, business);
    case "cancellation":
      return cancellationNotice(task, business);
    case "renewal_reminder":
      return reminderNotice(task, business);
    case "renewal_failed":
      return renewalFailedNotice(task, business);
  }
}
