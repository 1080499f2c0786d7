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
  /** Set when the cover renews itself: the card and what it will be charged. */
  autoRenew?: { last4: string; amount: string; currency: string } | null;
}): RenderedMail {
  const link = `${env.APP_URL}/portal/${encodeURIComponent(d.organizationId)}/coverages/${encodeURIComponent(d.coverageId)}`;
  const ends = day(d.endsAt);
  const when = d.daysLeft <= 0 ? "today" : `in ${daysWord(d.daysLeft)}`;
  if (d.autoRenew) {
    const charge = money(d.autoRenew.amount, d.autoRenew.currency);
    return {
      subject: `Your ${d.policy} with ${d.business} renews ${when}`,
      link,
      ...layoutEmail({
        heading: `Your cover renews ${when}`,
        paragraphs: [
          `Your ${d.policy} with ${d.business} renews automatically on ${ends}: we will charge ${charge} to your card ending ${d.autoRenew.last4}. You have nothing to do.`,
          "To stop it, or to use another card, open your cover in the policyholder portal.",
        ],
        details: [
          { label: "Business", value: d.business },
          { label: "Policy", value: d.policy },
          { label: "Renews on", value: ends },
          { label: "Amount", value: charge },
          { label: "Card", value: `•••• ${d.autoRenew.last4}` },
        ],
        action: { label: "Manage your cover", url: link },
        footer: `${d.business} sent you this reminder through Coverdesk because your cover renews automatically.`,
      }),
    };
  }
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

const portalCoverageLink = (organizationId: string, coverageId: string) =>
  `${env.APP_URL}/portal/${encodeURIComponent(organizationId)}/coverages/${encodeURIComponent(coverageId)}`;

/** To a policyholder whose renewal charge was declined: still covered until when, the next try, and paying by hand. */
export function renewalFailed(d: {
  business: string;
  policy: string;
  amount: string;
  currency: string;
  reference: string;
  attempt: number;
  reason: string | null;
  nextAttemptAt: string | null;
  graceEndsAt: string | null;
}): RenderedMail {
  const link = `${env.APP_URL}/pay/${encodeURIComponent(d.reference)}`;
  const until = d.graceEndsAt ? day(d.graceEndsAt) : null;
  return {
    subject: `We could not renew your ${d.policy} with ${d.business}`,
    link,
    ...layoutEmail({
      heading: "Your renewal payment was declined",
      paragraphs: [
        `We tried to charge ${money(d.amount, d.currency)} to your saved card to renew your ${d.policy} with ${d.business}, and the card was declined${d.reason ? ` (${d.reason})` : ""}.`,
        until
          ? `You are still covered until ${until}. ${d.nextAttemptAt ? `We will try your card again on ${day(d.nextAttemptAt)}.` : "We will not try your card again."} Pay now with another card to stay covered: the card you pay with is saved for your next renewals.`
          : "Pay now to renew your cover: the card you pay with is saved for your next renewals.",
      ],
      details: [
        { label: "Policy", value: d.policy },
        { label: "Amount", value: money(d.amount, d.currency) },
        { label: "Attempt", value: `${d.attempt} of 4` },
        ...(until ? [{ label: "Covered until", value: until }] : []),
        ...(d.nextAttemptAt ? [{ label: "Next try", value: day(d.nextAttemptAt) }] : []),
      ],
      action: { label: "Pay now", url: link },
      footer: `${d.business} sent you this through Coverdesk because your cover renews automatically. You can turn automatic renewal off in your policyholder portal.`,
    }),
  };
}

/** To a policyholder whose auto-renewing cover was not renewed: the business stopped selling the policy. */
export function renewalStopped(d: {
  business: string;
  policy: string;
  endsAt: string;
  organizationId: string;
  coverageId: string;
}): RenderedMail {
  const link = portalCoverageLink(d.organizationId, d.coverageId);
  return {
    subject: `Your ${d.policy} with ${d.business} was not renewed`,
    link,
    ...layoutEmail({
      heading: "Your cover was not renewed",
      paragraphs: [
        `${d.business} no longer sells ${d.policy}, so your cover was not renewed and your card was not charged. Your cover ended on ${day(d.endsAt)}.`,
        `Contact ${d.business} to choose another policy.`,
      ],
      details: [
        { label: "Policy", value: d.policy },
        { label: "Cover ended", value: day(d.endsAt) },
      ],
      action: { label: "See your cover", url: link },
      footer: `${d.business} sent you this through Coverdesk because your cover was set to renew automatically.`,
    }),
  };
}

/** To a policyholder whose saved card expires before the next renewal charge. */
export function cardExpiring(d: {
  business: string;
  policy: string;
  endsAt: string;
  last4: string;
  expMonth: number;
  expYear: number;
  organizationId: string;
  coverageId: string;
}): RenderedMail {
  const link = portalCoverageLink(d.organizationId, d.coverageId);
  const expiry = `${String(d.expMonth).padStart(2, "0")}/${d.expYear}`;
  return {
    subject: `Update your card to keep your ${d.policy} renewing`,
    link,
    ...layoutEmail({
      heading: "Your saved card expires before your renewal",
      paragraphs: [
        `Your ${d.policy} with ${d.business} renews on ${day(d.endsAt)}, but the card ending ${d.last4} expires at the end of ${expiry}.`,
        "Renew now with your new card in the policyholder portal: the new card is saved and your cover continues from its current end, so you lose nothing.",
      ],
      details: [
        { label: "Policy", value: d.policy },
        { label: "Renews on", value: day(d.endsAt) },
        { label: "Saved card", value: `•••• ${d.last4}, expires ${expiry}` },
      ],
      action: { label: "Update your card", url: link },
      footer: `${d.business} sent you this through Coverdesk because your cover renews automatically.`,
    }),
  };
}

/** To a policyholder on auto-renew: the premium changes, from which renewal. */
export function premiumChange(d: {
  business: string;
  policy: string;
  amount: string;
  currency: string;
  from: string;
  organizationId: string;
  coverageId: string;
}): RenderedMail {
  const link = portalCoverageLink(d.organizationId, d.coverageId);
  return {
    subject: `The premium of your ${d.policy} with ${d.business} is changing`,
    link,
    ...layoutEmail({
      heading: "Your premium is changing",
      paragraphs: [
        `${d.business} changed the price of ${d.policy} to ${money(d.amount, d.currency)}. Renewals charged from ${day(d.from)} on are charged the new premium; a renewal before then keeps your current one.`,
        "If you do not want to renew at the new premium, turn automatic renewal off in your policyholder portal.",
      ],
      details: [
        { label: "Policy", value: d.policy },
        { label: "New premium", value: money(d.amount, d.currency) },
        { label: "From", value: day(d.from) },
      ],
      action: { label: "Manage your cover", url: link },
      footer: `${d.business} sent you this through Coverdesk because your cover renews automatically.`,
    }),
  };
}
