// The text of an SMS task, composed when it is sent: a policyholder notice in
// the business's words (src/server/notices/policyholder.ts), or one of the
// fixed notices to the business's team. At most 2 segments, the link whole; a
// test-mode message starts with "[Test]".
import type { MailTask } from "@/generated/prisma/client";
import { displayMoney } from "@/lib/money";
import { fitSms, renderNotice } from "@/lib/notice-templates";
import { db } from "@/server/db/client";
import { env } from "@/server/env";
import type { Sms } from "@/server/integrations/sms";
import { smsMoney } from "@/lib/sms";
import { isPolicyholderKind, policyholderNotice, templateOf } from "@/server/notices/policyholder";
import { businessSmsText } from "./business";
import { taskData, type MailKind } from "./kinds";

const dataOf = taskData;

/** Words then a link, fitted: the words may be shortened, the link never. */
const withLink = (words: string, link: string) => fitSms("{{words}} {{link}}", { words: smsMoney(words), link }, ["link"]);

async function teamText(task: MailTask, business: string): Promise<string | null> {
  const kind = task.kind as MailKind;
  switch (kind) {
    case "payment_received": {
      const d = dataOf(kind, task);
      return withLink(
        `Coverdesk: ${business} received ${displayMoney(d.amount, d.currency)} from ${d.email}.`,
        `${env.APP_URL}/payments/${encodeURIComponent(d.reference)}`,
      );
    }
    case "claim_submitted": {
      const d = dataOf(kind, task);
      return withLink(`Coverdesk: a ${d.type} claim of ${displayMoney(d.amount, d.currency)} was filed with ${business}.`, `${env.APP_URL}/claims/${encodeURIComponent(d.id)}`);
    }
    case "kyb_approved":
      return withLink(`Coverdesk: ${business} is verified. Withdrawals are open.`, `${env.APP_URL}/kyb`);
    case "kyb_rejected":
      return withLink(`Coverdesk: the verification of ${business} was not approved: ${dataOf(kind, task).reason}`, `${env.APP_URL}/kyb`);
    case "withdrawal_failed": {
      const d = dataOf(kind, task);
      return withLink(
        `Coverdesk: a withdrawal of ${displayMoney(d.amount, d.currency)} by ${business} failed (${d.failureReason}). The money is back in the balance.`,
        `${env.APP_URL}/earnings`,
      );
    }
    default: {
      const text = await businessSmsText(task);
      if (text === undefined) throw new Error(`No SMS for notices of kind ${task.kind}`);
      return text;
    }
  }
}

export async function composeSms(task: MailTask): Promise<Sms | null> {
  const org = await db.organization.findUniqueOrThrow({
    where: { id: task.organizationId },
    select: { livemode: true, name: true },
  });
  const prefix = org.livemode ? "" : "[Test] ";
  let body: string | null;
  if (isPolicyholderKind(task.kind)) {
    // Texts turned off since it was planned: not sent (the task goes, like a code for an email without cover).
    if (task.customerEmail && (await optedOut(task.organizationId, task.customerEmail))) return null;
    const notice = await policyholderNotice(task, { withAttachments: false });
    if (!notice) return null;
    const template = await templateOf(task.organizationId, notice.template);
    body = renderNotice(notice.template, { ...template, smsBody: `${prefix}${template.smsBody}` }, notice.values).sms;
  } else {
    const text = await teamText(task, org.name);
    body = text && prefix && !text.startsWith("[Sample]") ? withPrefix(prefix, text) : text;
  }
  return body ? { to: task.recipient, body, kind: task.kind, livemode: org.livemode } : null;
}

async function optedOut(organizationId: string, email: string): Promise<boolean> {
  const row = await db.customer.findUnique({
    where: { organizationId_email: { organizationId, email } },
    select: { smsOptOut: true },
  });
  return row?.smsOptOut ?? false;
}

/** "[Test] " before a fitted text, fitted again (its link kept whole). */
function withPrefix(prefix: string, text: string): string {
  const link = text.match(/https?:\/\/\S+$/)?.[0];
  if (!link) return `${prefix}${text}`;
  return fitSms(`${prefix}{{words}} {{link}}`, { words: text.slice(0, text.length - link.length).trim(), link }, ["link"]);
}
