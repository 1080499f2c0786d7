// The words of each mail, plain text and HTML, from data already loaded.
// Pure: no database, no clock. Every value is escaped by layoutEmail.
import { displayMoney } from "@/lib/money";
import { env } from "@/server/env";
import { layoutEmail } from "@/server/integrations/email";

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  link?: string;
}

/** As the dashboard shows it: "₦40,000.00". */
const money = (amount: string, currency: string) => displayMoney(amount, currency);

/** "12 March 2026" — a calendar date in UTC, the zone every stored time is in. */
export const day = (iso: string | Date) =>
  new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

const notificationFooter = (business: string) =>
  `You receive this email as an owner or admin of ${business}. Email notifications can be turned off in Settings.`;

export function paymentReceived(d: {
  business: string;
  policy: string;
  amount: string;
  currency: string;
  email: string;
  reference: string;
}): RenderedMail {
  const link = `${env.APP_URL}/payments/${encodeURIComponent(d.reference)}`;
  const paid = money(d.amount, d.currency);
  return {
    subject: `Payment received: ${paid} for ${d.policy}`,
    link,
    ...layoutEmail({
      heading: `Payment received: ${paid}`,
      paragraphs: [`${d.email} paid ${paid} for ${d.policy}.`],
      details: [
        { label: "Customer", value: d.email },
        { label: "Policy", value: d.policy },
        { label: "Amount", value: paid },
        { label: "Reference", value: d.reference },
      ],
      action: { label: "View the payment", url: link },
      footer: notificationFooter(d.business),
    }),
  };
}

export function claimSubmitted(d: {
  business: string;
  policy: string;
  type: string;
  amount: string;
  currency: string;
  description: string;
}): RenderedMail {
  const link = `${env.APP_URL}/claims`;
  const claimed = money(d.amount, d.currency);
  const description = d.description.length > 500 ? `${d.description.slice(0, 500)}…` : d.description;
  return {
    subject: `New ${d.type} claim: ${claimed} on ${d.policy}`,
    link,
    ...layoutEmail({
      heading: "A claim was submitted",
      paragraphs: [`A ${d.type} claim of ${claimed} was submitted on ${d.policy}.`],
      details: [
        { label: "Type", value: d.type },
        { label: "Amount", value: claimed },
        { label: "Policy", value: d.policy },
        { label: "Description", value: description },
      ],
      action: { label: "Review claims", url: link },
      footer: notificationFooter(d.business),
    }),
  };
}

export function kybApproved(d: { business: string }): RenderedMail {
  return {
    subject: "Your business is verified",
    ...layoutEmail({
      heading: "Your business is verified",
      paragraphs: [
        `Coverdesk has reviewed and approved the documents of ${d.business}.`,
        "Withdrawals and everything else that needs a verified business are now open to you.",
      ],
      footer: notificationFooter(d.business),
    }),
  };
}

export function kybRejected(d: { business: string; reason: string }): RenderedMail {
  const link = `${env.APP_URL}/kyb`;
  return {
    subject: "Your business verification was not approved",
    link,
    ...layoutEmail({
      heading: "Your business verification was not approved",
      paragraphs: [
        `Coverdesk could not approve the documents of ${d.business}.`,
        `Reason: ${d.reason}`,
        "Correct the documents and submit them again.",
      ],
      action: { label: "Resubmit your documents", url: link },
      footer: notificationFooter(d.business),
    }),
  };
}

export function customerReceipt(d: {
  business: string;
  policy: string;
  amount: string;
  currency: string;
  reference: string;
  startsAt: string | Date | null;
  endsAt: string | Date | null;
  paidAt: string | Date | null;
  hasAttachment: boolean;
  /** The coverage the payment bought or renewed: links to its certificate on the policyholder portal. */
  coverage?: { organizationId: string; coverageId: string; certificateNumber: string } | null;
}): RenderedMail {
  const paid = money(d.amount, d.currency);
  const c = d.coverage;
  // The certificate names the policyholder, so the mail links to the portal
  // (sign in with an emailed code) rather than to the PDF itself.
  const portal = c ? `${env.APP_URL}/portal/${encodeURIComponent(c.organizationId)}` : null;
  const certificate = c ? `${portal}/coverages/${encodeURIComponent(c.coverageId)}` : null;
  const verify = c ? `${env.APP_URL}/verify/${encodeURIComponent(c.certificateNumber)}` : null;
  return {
    subject: `Your receipt from ${d.business}: ${d.policy}`,
    ...(certificate ? { link: certificate } : {}),
    ...layoutEmail({
      heading: `Receipt: ${paid} to ${d.business}`,
      paragraphs: [
        `Thank you. ${d.business} received your payment of ${paid} for ${d.policy}.`,
        ...(d.hasAttachment ? [`${d.business}'s receipt is attached.`] : []),
        ...(c
          ? [
              `Your certificate of insurance is ready: sign in with this email address to download it. Anyone who needs proof of your cover can check it at ${verify}.`,
            ]
          : []),
      ],
      details: [
        { label: "Business", value: d.business },
        { label: "Policy", value: d.policy },
        { label: "Amount", value: paid },
        { label: "Reference", value: d.reference },
        ...(d.startsAt && d.endsAt ? [{ label: "Coverage", value: `${day(d.startsAt)} – ${day(d.endsAt)}` }] : []),
        ...(d.paidAt ? [{ label: "Paid on", value: day(d.paidAt) }] : []),
        ...(c && verify
          ? [
              { label: "Certificate number", value: c.certificateNumber },
              { label: "Verify it at", value: verify },
            ]
          : []),
      ],
      ...(certificate && portal
        ? {
            action: { label: "Your certificate of insurance", url: certificate },
            links: [{ label: "Manage your cover", url: portal }],
          }
        : {}),
      footer: `${d.business} sent you this receipt through Coverdesk. Keep it for your records; quote the reference if you contact them.`,
    }),
  };
}

export function withdrawalFailed(d: {
  business: string;
  amount: string;
  currency: string;
  bankName: string;
  last4: string;
  failureReason: string;
}): RenderedMail {
  const link = `${env.APP_URL}/earnings`;
  const amount = money(d.amount, d.currency);
  const account = d.last4 ? `${d.bankName} ••••${d.last4}` : d.bankName;
  return {
    subject: `Your withdrawal of ${amount} failed`,
    link,
    ...layoutEmail({
      heading: `Your withdrawal of ${amount} failed`,
      paragraphs: [
        `The withdrawal of ${amount} to ${account} could not be paid out.`,
        `Reason: ${d.failureReason}`,
        "The money is back in your available balance: you can withdraw it again.",
      ],
      details: [
        { label: "Amount", value: amount },
        { label: "Bank account", value: account },
        { label: "Reason", value: d.failureReason },
      ],
      action: { label: "View earnings", url: link },
      footer: notificationFooter(d.business),
    }),
  };
}

const daysWord = (n: number) => (n === 1 ? "1 day" : `${n} days`);

/** To a policyholder before their cover ends: when, and where to renew (the policyholder portal). */
export function renewalReminder(d: {
  business: string;
  policy: string;
  endsAt: string | Date;
  /** Whole days from the send to the end, at least 0 (0: it ends today). */
  daysLeft: number;
  organizationId: string;
  coverageId: string;
}): RenderedMail {
  const link = `${env.APP_URL}/portal/${encodeURIComponent(d.organizationId)}/coverages/${encodeURIComponent(d.coverageId)}`;
  const ends = day(d.endsAt);
  const when = d.daysLeft <= 0 ? "today" : `in ${daysWord(d.daysLeft)}`;
  return {
    subject: `Your ${d.policy} with ${d.business} ends ${when}`,
    link,
    ...layoutEmail({
      heading: `Your cover ends ${when}`,
      paragraphs: [
        `Your ${d.policy} with ${d.business} ends on ${ends}.`,
        "Renew it before then to stay covered: sign in with your email address and choose Renew.",
      ],
      details: [
        { label: "Business", value: d.business },
        { label: "Policy", value: d.policy },
        { label: "Cover ends", value: ends },
        { label: "Days left", value: String(Math.max(0, d.daysLeft)) },
      ],
      action: { label: "Renew your cover", url: link },
      footer: `${d.business} sent you this reminder through Coverdesk because your cover is about to end. If you have already renewed, you can ignore it.`,
    }),
  };
}
