// The notices to a business's own team that came with SMS: the daily payment
// digest, a webhook endpoint the platform disabled, a failed claim payout —
// and "Send me a test" of a policyholder template. Each as an email and as the
// text of an SMS (the team's SMS notices are fixed words: only the
// policyholder's are the business's to edit).
import type { MailTask } from "@/generated/prisma/client";
import { displayMoney, formatMinor } from "@/lib/money";
import { isNoticeKind, NOTICE_SPECS, renderNotice } from "@/lib/notice-templates";
import { fitSms } from "@/lib/notice-templates";
import { smsMoney } from "@/lib/sms";
import { db } from "@/server/db/client";
import { env } from "@/server/env";
import { layoutEmail, type Email } from "@/server/integrations/email";
import { taskData, type MailKind } from "./kinds";
import { day } from "./templates";

const dataOf = taskData;
const footer = (business: string) =>
  `You receive this as an owner or admin of ${business}. Notifications are chosen in Settings → Notifications.`;

/** A day's successful payments: how many and their sum (the organization's currency). */
async function daySummary(organizationId: string, isoDay: string) {
  const from = new Date(`${isoDay}T00:00:00.000Z`);
  const to = new Date(from.getTime() + 86_400_000);
  const [row] = await db.$queryRaw<{ count: bigint; total: bigint | null; currency: string | null }[]>`
    SELECT count(*) AS count, sum("amountMinor") AS total, min(currency) AS currency FROM payment
    WHERE "organizationId" = ${organizationId} AND status = 'success' AND "paidAt" >= ${from} AND "paidAt" < ${to}`;
  const currency = row?.currency ?? "NGN";
  return {
    count: Number(row?.count ?? 0),
    total: displayMoney(formatMinor(row?.total ?? 0n, currency), currency),
  };
}

/** What a business notice says, for both channels; undefined: not one of these kinds. */
async function words(task: MailTask) {
  const org = await db.organization.findUniqueOrThrow({ where: { id: task.organizationId }, select: { name: true } });
  const business = org.name;
  switch (task.kind as MailKind) {
    case "payment_digest": {
      const d = dataOf("payment_digest", task);
      const { count, total } = await daySummary(task.organizationId, d.day);
      const link = `${env.APP_URL}/payments`;
      const heading = `${count} payments on ${day(d.day)}: ${total}`;
      return {
        business,
        heading,
        paragraphs: [
          `${business} received ${count} payments on ${day(d.day)}, ${total} in all. Past the first 20 of a day, payment notices come together in this digest (Settings → Notifications).`,
        ],
        details: [
          { label: "Day", value: day(d.day) },
          { label: "Payments", value: String(count) },
          { label: "Total", value: total },
        ],
        action: { label: "See the payments", url: link },
        sms: `Coverdesk: ${business} received ${count} payments (${total}) on ${day(d.day)}. ${link}`,
      };
    }
    case "webhook_disabled": {
      const d = dataOf("webhook_disabled", task);
      const link = `${env.APP_URL}/webhooks`;
      return {
        business,
        heading: "A webhook endpoint was disabled",
        paragraphs: [
          `Coverdesk stopped sending events to ${d.url}: ${d.reason}.`,
          "Fix the receiver, then enable the endpoint again; the events it missed can be sent again from its delivery log.",
        ],
        details: [
          { label: "Endpoint", value: d.url },
          { label: "Reason", value: d.reason },
        ],
        action: { label: "Open webhooks", url: link },
        sms: `Coverdesk: the webhook endpoint of ${business} was disabled (${d.reason}). ${link}`,
      };
    }
    case "payout_failed": {
      const d = dataOf("payout_failed", task);
      const link = `${env.APP_URL}/claims/${encodeURIComponent(d.claimId)}`;
      const amount = displayMoney(d.amount, d.currency);
      const reason = d.failureReason ?? "the bank refused it";
      return {
        business,
        heading: `A claim payout of ${amount} failed`,
        paragraphs: [
          `The payout of ${amount} to the policyholder could not be made: ${reason}.`,
          "The money is back in your balance. Ask the policyholder to check their account, then pay the claim again.",
        ],
        details: [
          { label: "Amount", value: amount },
          { label: "Reason", value: reason },
        ],
        action: { label: "Open the claim", url: link },
        sms: `Coverdesk: a claim payout of ${amount} by ${business} failed (${reason}). ${link}`,
      };
    }
    case "new_sign_in": {
      const d = dataOf("new_sign_in", task);
      const link = `${env.APP_URL}/account/profile`;
      const at = new Date(d.at).toLocaleString("en-GB", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" });
      return {
        business,
        subject: "New sign-in to your Coverdesk account",
        heading: "A new device signed in to your account",
        paragraphs: [
          `Your Coverdesk account was signed in to from ${d.browser} on ${d.system}${d.ipAddress ? ` (${d.ipAddress})` : ""} on ${at} UTC.`,
          "If this was you, there is nothing to do. If not, sign that device out on your profile page and change your password at once.",
        ],
        details: [
          { label: "Device", value: `${d.browser} on ${d.system}` },
          ...(d.ipAddress ? [{ label: "Address", value: d.ipAddress }] : []),
          { label: "When", value: `${at} UTC` },
        ],
        action: { label: "Review your devices", url: link },
        sms: "",
        sampleFooter: "Coverdesk sends this whenever your account is signed in to from a new device.",
      };
    }
    case "template_test": {
      const d = dataOf("template_test", task);
      if (!isNoticeKind(d.template)) return null;
      const spec = NOTICE_SPECS[d.template];
      const rendered = renderNotice(d.template, d, spec.sample);
      return {
        business,
        subject: `[Sample] ${rendered.subject}`,
        heading: rendered.subject,
        paragraphs: rendered.paragraphs,
        details: Object.entries(spec.sample).map(([label, value]) => ({ label: `{{${label}}}`, value })),
        action: { label: "Edit the template", url: `${env.APP_URL}/settings/notifications` },
        sms: `[Sample] ${rendered.sms}`,
        sampleFooter: `A sample of the "${spec.label}" notice of ${business}, with made-up values, sent from Settings → Notifications.`,
      };
    }
    default:
      return undefined;
  }
}

/** The email of one of these kinds; undefined when the task is another kind (null: nothing to send). */
export async function composeBusinessMail(task: MailTask): Promise<Email | null | undefined> {
  const w = await words(task);
  if (w === undefined) return undefined;
  if (w === null) return null;
  return {
    to: task.recipient,
    subject: "subject" in w && w.subject ? w.subject : w.heading,
    link: w.action.url,
    ...layoutEmail({
      heading: w.heading,
      paragraphs: w.paragraphs,
      details: w.details,
      action: w.action,
      footer: "sampleFooter" in w && w.sampleFooter ? w.sampleFooter : footer(w.business),
    }),
  };
}

/** The SMS text of one of these kinds (kept to 2 segments, the link whole); undefined: another kind. */
export async function businessSmsText(task: MailTask): Promise<string | null | undefined> {
  const w = await words(task);
  if (w === undefined) return undefined;
  if (w === null) return null;
  if (task.kind === "template_test") return w.sms; // fitted by renderNotice already
  const link = w.action.url;
  const at = w.sms.lastIndexOf(link);
  // The words before the link may be shortened; the link never is.
  return fitSms(`{{words}} {{link}}`, { words: smsMoney(w.sms.slice(0, at).trim()), link }, ["link"]);
}
