// Turns a mail task into a message at send time: what the event did not carry
// (business and policy names, coverage dates, the receipt file) is read now,
// always within the task's own organization.
import type { MailTask } from "@/generated/prisma/client";
import { renderNotice } from "@/lib/notice-templates";
import { db } from "@/server/db/client";
import { layoutEmail, type Email } from "@/server/integrations/email";
import type { Sms } from "@/server/integrations/sms";
import { isPolicyholderKind, policyholderNotice, policyName, templateOf } from "@/server/notices/policyholder";
import { composeBusinessMail } from "./business";
import { taskData, type MailKind } from "./kinds";
import {
  cardExpiring,
  claimSubmitted,
  kybApproved,
  kybRejected,
  paymentReceived,
  premiumChange,
  renewalStopped,
  withdrawalFailed,
} from "./templates";

/** A composed notice, by the channel it goes by. */
export type Outgoing = { channel: "email"; email: Email } | { channel: "sms"; sms: Sms };

const dataOf = taskData;

/** The message of a task (null: nothing to say any more); a test-mode one says so in its subject. */
export async function composeMail(task: MailTask): Promise<Email | null> {
  const { livemode } = await db.organization.findUniqueOrThrow({
    where: { id: task.organizationId },
    select: { livemode: true },
  });
  const mail = await compose(task);
  if (!mail) return null;
  return livemode ? mail : { ...mail, subject: `[Test] ${mail.subject}` };
}

/** A policyholder notice in the business's words (or the default ones), with what the email shows around them. */
async function composePolicyholderMail(task: MailTask): Promise<Email | null> {
  const notice = await policyholderNotice(task);
  if (!notice) return null;
  const template = await templateOf(task.organizationId, notice.template);
  const words = renderNotice(notice.template, template, notice.values);
  const business = notice.values.businessName!;
  return {
    to: task.recipient,
    onBehalfOf: business,
    subject: words.subject,
    link: notice.action.url,
    ...(notice.attachments?.length ? { attachments: notice.attachments } : {}),
    ...layoutEmail({
      heading: words.subject,
      paragraphs: [...words.paragraphs, ...(notice.extra ?? [])],
      details: notice.details,
      action: notice.action,
      links: notice.links,
      footer: notice.footer,
    }),
  };
}

async function compose(task: MailTask): Promise<Email | null> {
  if (isPolicyholderKind(task.kind)) return composePolicyholderMail(task);
  const other = await composeBusinessMail(task);
  if (other !== undefined) return other;
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
