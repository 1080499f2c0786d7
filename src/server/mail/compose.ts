// Turns a mail task into a message at send time: what the event did not carry
// (business and policy names, coverage dates, the receipt file) is read now,
// always within the task's own organization.
import type { MailTask } from "@/generated/prisma/client";
import { formatMinor } from "@/lib/money";
import { renewalAmount } from "@/server/renewals/pricing";
import { db } from "@/server/db/client";
import { currentReceiptSample } from "@/server/documents/service";
import { storageNamed } from "@/server/files/storage";
import type { Email } from "@/server/integrations/email";
import { logger } from "@/server/logger";
import { MAIL_DATA, type MailData, type MailKind } from "./kinds";
import {
  claimSubmitted,
  customerReceipt,
  kybApproved,
  kybRejected,
  paymentReceived,
  cardExpiring,
  premiumChange,
  renewalFailed,
  renewalReminder,
  renewalStopped,
  withdrawalFailed,
} from "./templates";

const dataOf = <K extends MailKind>(kind: K, task: MailTask): MailData<K> => MAIL_DATA[kind].parse(task.data) as MailData<K>;

async function policyName(organizationId: string, policyId: string) {
  const policy = await db.policy.findFirst({ where: { id: policyId, organizationId }, select: { name: true } });
  return policy?.name ?? "a policy";
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

/** The coverage a payment bought or renewed, for the receipt's certificate links; null before it settled. */
async function certificateOf(organizationId: string, coverageId: string | null) {
  if (!coverageId) return null;
  const row = await db.coverage.findFirst({ where: { id: coverageId, organizationId }, select: { certificateNumber: true } });
  return row ? { organizationId, coverageId, certificateNumber: row.certificateNumber } : null;
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

/** The message of a task; a test-mode one says so in its subject. */
export async function composeMail(task: MailTask): Promise<Email> {
  const { livemode } = await db.organization.findUniqueOrThrow({
    where: { id: task.organizationId },
    select: { livemode: true },
  });
  const mail = await compose(task);
  return livemode ? mail : { ...mail, subject: `[Test] ${mail.subject}` };
}

async function compose(task: MailTask): Promise<Email> {
  const org = await db.organization.findUniqueOrThrow({ where: { id: task.organizationId }, select: { name: true } });
  const business = org.name;
  const to = task.recipient;
  const kind = task.kind as MailKind;
  switch (kind) {
    case "payment_received": {
      const d = dataOf(kind, task);
      return { to, ...paymentReceived({ ...d, business, policy: await policyName(task.organizationId, d.policyId) }) };
    }
    case "claim_submitted": {
      const d = dataOf(kind, task);
      return { to, ...claimSubmitted({ ...d, business, policy: await policyName(task.organizationId, d.policyId) }) };
    }
    case "kyb_approved":
      return { to, ...kybApproved({ business }) };
    case "kyb_rejected":
      return { to, ...kybRejected({ business, reason: dataOf(kind, task).reason }) };
    case "withdrawal_failed": {
      const d = dataOf(kind, task);
      const account = await db.bankAccount.findFirst({
        where: { id: d.bankAccountId, organizationId: task.organizationId },
        select: { bankName: true, accountNumberLast4: true },
      });
      return {
        to,
        ...withdrawalFailed({
          ...d,
          business,
          bankName: account?.bankName ?? "your bank",
          last4: account?.accountNumberLast4 ?? "",
        }),
      };
    }
    case "customer_receipt": {
      const d = dataOf(kind, task);
      const payment = await db.payment.findFirst({ where: { reference: d.reference, organizationId: task.organizationId } });
      const [policy, coverage, attachments] = await Promise.all([
        policyName(task.organizationId, d.policyId),
        coverageAfter(task.organizationId, d),
        receiptAttachment(task.organizationId),
      ]);
      const body = customerReceipt({
        ...d,
        business,
        policy,
        ...coverage,
        paidAt: payment?.paidAt ?? d.paidAt,
        hasAttachment: Boolean(attachments?.length),
        coverage: await certificateOf(task.organizationId, payment?.coverageId ?? null),
      });
      return { to, onBehalfOf: business, attachments, ...body };
    }
    case "renewal_reminder": {
      const d = dataOf(kind, task);
      const daysLeft = Math.max(0, Math.ceil((new Date(d.endsAt).getTime() - Date.now()) / 86_400_000));
      // An auto-renewing cover (as it is now, for the period the reminder is about) says what will be charged.
      const cover = await db.coverage.findFirst({
        where: { id: d.coverageId, organizationId: task.organizationId },
        select: {
          autoRenew: true,
          cardLast4: true,
          endsAt: true,
          premiumMinor: true,
          nextPremiumMinor: true,
          nextPremiumFrom: true,
          policy: { select: { priceMinor: true, currency: true, isActive: true } },
        },
      });
      const renews =
        cover?.autoRenew && cover.cardLast4 && cover.policy.isActive && cover.endsAt.toISOString() === d.endsAt
          ? {
              last4: cover.cardLast4,
              amount: formatMinor(renewalAmount({ ...cover, priceMinor: cover.policy.priceMinor }), cover.policy.currency),
              currency: cover.policy.currency,
            }
          : null;
      const body = renewalReminder({
        autoRenew: renews,
        business,
        policy: await policyName(task.organizationId, d.policyId),
        endsAt: d.endsAt,
        daysLeft,
        organizationId: task.organizationId,
        coverageId: d.coverageId,
      });
      return { to, onBehalfOf: business, ...body };
    }
    case "renewal_failed": {
      const d = dataOf(kind, task);
      const policy = await policyName(task.organizationId, d.policyId);
      return { to, onBehalfOf: business, ...renewalFailed({ ...d, business, policy }) };
    }
    case "renewal_stopped": {
      const d = dataOf(kind, task);
      const policy = await policyName(task.organizationId, d.policyId);
      return { to, onBehalfOf: business, ...renewalStopped({ ...d, business, policy, organizationId: task.organizationId }) };
    }
    case "card_expiring": {
      const d = dataOf(kind, task);
      const policy = await policyName(task.organizationId, d.policyId);
      return { to, onBehalfOf: business, ...cardExpiring({ ...d, business, policy, organizationId: task.organizationId }) };
    }
    case "premium_change": {
      const d = dataOf(kind, task);
      const policy = await policyName(task.organizationId, d.policyId);
      return { to, onBehalfOf: business, ...premiumChange({ ...d, business, policy, organizationId: task.organizationId }) };
    }
    default:
      throw new Error(`Unknown mail kind: ${String(task.kind)}`);
  }
}
