// The policyholder notices a business words itself: for each, the email's
// subject and body and the SMS's text, with {{placeholders}} only — no
// sections, partials or unescaped tags (mustache, logic-less). Shared by the
// server (checks a template, renders it at send time) and the dashboard (the
// live preview renders the same way, with the same sample data).
import Mustache from "mustache";
import { SMS_MAX_CHARACTERS, SMS_MAX_SEGMENTS, smsMoney, smsSegments } from "@/lib/sms";

export const NOTICE_KINDS = [
  "receipt",
  "claim_received",
  "claim_approved",
  "claim_rejected",
  "claim_paid",
  "refund",
  "cancellation",
  "renewal_reminder",
  "auto_renewal_reminder",
  "renewal_failed",
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

export interface NoticeTemplate {
  emailSubject: string;
  emailBody: string;
  smsBody: string;
}

export const TEMPLATE_LIMITS = { emailSubject: 200, emailBody: 5000, smsBody: SMS_MAX_CHARACTERS } as const;

const COMMON = {
  customerName: "The policyholder's name (or “there” when none was given)",
  businessName: "Your business's name",
  policyName: "The policy's name",
} as const;

interface KindSpec {
  label: string;
  when: string;
  /** The link the SMS must carry (never shortened). */
  link: "portalLink" | "payLink";
  placeholders: Record<string, string>;
  sample: Record<string, string>;
  template: NoticeTemplate;
}

const SAMPLE_COMMON = {
  customerName: "Adaeze Okafor",
  businessName: "Lagos Mutual",
  policyName: "Motor Third Party",
  portalLink: "https://coverdesk.example/portal/org_sample",
};

export const NOTICE_SPECS: Record<NoticeKind, KindSpec> = {
  receipt: {
    label: "Receipt",
    when: "A payment succeeded (a purchase or a renewal).",
    link: "portalLink",
    placeholders: {
      ...COMMON,
      amount: "The amount paid, e.g. ₦40,000.00",
      reference: "The payment's reference",
      coverageEnds: "The day the cover now ends",
      portalLink: "The policyholder portal (their certificate)",
    },
    sample: { ...SAMPLE_COMMON, amount: "₦40,000.00", reference: "ref_9f3a21", coverageEnds: "27 December 2026" },
    template: {
      emailSubject: "Your receipt from {{businessName}}: {{policyName}}",
      emailBody: "Thank you. {{businessName}} received your payment of {{amount}} for {{policyName}}.",
      smsBody: "{{businessName}}: we received {{amount}} for {{policyName}}, covered until {{coverageEnds}}. Ref {{reference}}. {{portalLink}}",
    },
  },
  claim_received: {
    label: "Claim received",
    when: "A claim was filed on one of the policyholder's covers.",
    link: "portalLink",
    placeholders: {
      ...COMMON,
      amount: "The amount claimed",
      claimType: "The kind of claim, e.g. accident",
      claimStatus: "The claim's status (submitted)",
      portalLink: "The policyholder portal (the claim's progress)",
    },
    sample: { ...SAMPLE_COMMON, amount: "₦120,000.00", claimType: "accident", claimStatus: "submitted" },
    template: {
      emailSubject: "We received your claim on {{policyName}}",
      emailBody:
        "Hello {{customerName}},\n\n{{businessName}} received your {{claimType}} claim of {{amount}} on {{policyName}}. We will tell you as soon as it is decided.",
      smsBody: "{{businessName}}: we received your {{claimType}} claim of {{amount}}. Follow it at {{portalLink}}",
    },
  },
  claim_approved: {
    label: "Claim approved",
    when: "The business approved a claim.",
    link: "portalLink",
    placeholders: {
      ...COMMON,
      amount: "The amount approved",
      claimedAmount: "The amount claimed",
      claimStatus: "The claim's status (approved)",
      portalLink: "The policyholder portal (where they give the account to be paid to)",
    },
    sample: { ...SAMPLE_COMMON, amount: "₦100,000.00", claimedAmount: "₦120,000.00", claimStatus: "approved" },
    template: {
      emailSubject: "Your claim on {{policyName}} was approved",
      emailBody:
        "Hello {{customerName}},\n\n{{businessName}} approved your claim on {{policyName}}: {{amount}} will be paid to you. Give the bank account to pay it to in the policyholder portal if you have not yet.",
      smsBody: "{{businessName}}: your claim was approved, {{amount}} will be paid to you. {{portalLink}}",
    },
  },
  claim_rejected: {
    label: "Claim rejected",
    when: "The business rejected a claim.",
    link: "portalLink",
    placeholders: {
      ...COMMON,
      amount: "The amount claimed",
      reason: "The reason the business gave (or “no reason was given”)",
      claimStatus: "The claim's status (rejected)",
      portalLink: "The policyholder portal",
    },
    sample: { ...SAMPLE_COMMON, amount: "₦120,000.00", reason: "The damage happened before the cover started.", claimStatus: "rejected" },
    template: {
      emailSubject: "Your claim on {{policyName}} was not approved",
      emailBody:
        "Hello {{customerName}},\n\n{{businessName}} could not approve your claim of {{amount}} on {{policyName}}.\n\nReason: {{reason}}\n\nContact {{businessName}} if you have questions.",
      smsBody: "{{businessName}}: your claim of {{amount}} was not approved. Reason: {{reason}} {{portalLink}}",
    },
  },
  claim_paid: {
    label: "Claim paid",
    when: "A claim was paid out.",
    link: "portalLink",
    placeholders: {
      ...COMMON,
      amount: "The amount paid",
      claimStatus: "The claim's status (paid)",
      portalLink: "The policyholder portal",
    },
    sample: { ...SAMPLE_COMMON, amount: "₦100,000.00", claimStatus: "paid" },
    template: {
      emailSubject: "Your claim on {{policyName}} was paid",
      emailBody: "Hello {{customerName}},\n\n{{businessName}} paid your claim on {{policyName}}: {{amount}}.",
      smsBody: "{{businessName}}: your claim was paid, {{amount}}. {{portalLink}}",
    },
  },
  refund: {
    label: "Refund",
    when: "A refund of a payment went through.",
    link: "portalLink",
    placeholders: {
      ...COMMON,
      amount: "The amount refunded",
      reference: "The refunded payment's reference",
      portalLink: "The policyholder portal",
    },
    sample: { ...SAMPLE_COMMON, amount: "₦20,000.00", reference: "ref_9f3a21" },
    template: {
      emailSubject: "{{businessName}} refunded {{amount}}",
      emailBody:
        "Hello {{customerName}},\n\n{{businessName}} refunded {{amount}} of your payment {{reference}} for {{policyName}}. It reaches your card or account within a few working days.",
      smsBody: "{{businessName}}: we refunded {{amount}} of payment {{reference}}. {{portalLink}}",
    },
  },
  cancellation: {
    label: "Cover cancelled",
    when: "A cover was cancelled (by the business or the policyholder).",
    link: "portalLink",
    placeholders: {
      ...COMMON,
      cancelledOn: "The day it was cancelled",
      portalLink: "The policyholder portal",
    },
    sample: { ...SAMPLE_COMMON, cancelledOn: "27 November 2026" },
    template: {
      emailSubject: "Your {{policyName}} was cancelled",
      emailBody:
        "Hello {{customerName}},\n\nYour {{policyName}} with {{businessName}} was cancelled on {{cancelledOn}}. Any refund due is paid back separately.",
      smsBody: "{{businessName}}: your {{policyName}} was cancelled on {{cancelledOn}}. {{portalLink}}",
    },
  },
  renewal_reminder: {
    label: "Renewal reminder",
    when: "Some days before a cover that does not renew itself ends (Settings → Reminders).",
    link: "portalLink",
    placeholders: {
      ...COMMON,
      endsOn: "The day the cover ends",
      endsWhen: "“today” or “in 3 days”",
      portalLink: "The policyholder portal (where they renew)",
    },
    sample: { ...SAMPLE_COMMON, endsOn: "30 November 2026", endsWhen: "in 3 days" },
    template: {
      emailSubject: "Your {{policyName}} with {{businessName}} ends {{endsWhen}}",
      emailBody:
        "Your {{policyName}} with {{businessName}} ends on {{endsOn}}.\n\nRenew it before then to stay covered: sign in with your email address and choose Renew.",
      smsBody: "{{businessName}}: your {{policyName}} ends {{endsWhen}} ({{endsOn}}). Renew at {{portalLink}}",
    },
  },
  auto_renewal_reminder: {
    label: "Automatic renewal reminder",
    when: "Some days before a cover that renews itself with the saved card is charged.",
    link: "portalLink",
    placeholders: {
      ...COMMON,
      renewsOn: "The day it renews",
      endsWhen: "“today” or “in 3 days”",
      amount: "What the card will be charged",
      cardLast4: "The saved card's last 4 digits",
      portalLink: "The policyholder portal (to stop it or change the card)",
    },
    sample: { ...SAMPLE_COMMON, renewsOn: "30 November 2026", endsWhen: "in 3 days", amount: "₦40,000.00", cardLast4: "4081" },
    template: {
      emailSubject: "Your {{policyName}} with {{businessName}} renews {{endsWhen}}",
      emailBody:
        "Your {{policyName}} with {{businessName}} renews automatically on {{renewsOn}}: we will charge {{amount}} to your card ending {{cardLast4}}. You have nothing to do.\n\nTo stop it, or to use another card, open your cover in the policyholder portal.",
      smsBody: "{{businessName}}: your {{policyName}} renews {{endsWhen}}; {{amount}} goes on card {{cardLast4}}. Manage: {{portalLink}}",
    },
  },
  renewal_failed: {
    label: "Renewal charge failed",
    when: "The saved card was declined for a renewal.",
    link: "payLink",
    placeholders: {
      ...COMMON,
      amount: "The premium that was declined",
      coveredUntil: "Until when the cover stays valid unpaid",
      payLink: "The page where they pay by hand",
    },
    sample: { ...SAMPLE_COMMON, amount: "₦40,000.00", coveredUntil: "4 December 2026", payLink: "https://coverdesk.example/pay/cdr_sample" },
    template: {
      emailSubject: "We could not renew your {{policyName}} with {{businessName}}",
      emailBody:
        "We tried to charge {{amount}} to your saved card to renew your {{policyName}} with {{businessName}}, and the card was declined.\n\nYou are still covered until {{coveredUntil}}. Pay now with another card to stay covered: the card you pay with is saved for your next renewals.",
      smsBody: "{{businessName}}: your card was declined for {{amount}} ({{policyName}}). Covered until {{coveredUntil}}. Pay: {{payLink}}",
    },
  },
};

export const isNoticeKind = (kind: string): kind is NoticeKind => (NOTICE_KINDS as readonly string[]).includes(kind);

export const defaultTemplate = (kind: NoticeKind): NoticeTemplate => ({ ...NOTICE_SPECS[kind].template });

export interface TemplateProblem {
  path: keyof NoticeTemplate;
  message: string;
}

/** The placeholders a template names, or the reason it is not a plain placeholder template. */
function placeholdersOf(text: string): { names: string[] } | { error: string } {
  let tokens: ReturnType<typeof Mustache.parse>;
  try {
    // A copy of the tag list: Mustache caches by template, and this check must see the text as written.
    tokens = Mustache.parse(text, ["{{", "}}"]);
  } catch (err) {
    return { error: `Check the braces: ${(err as Error).message}` };
  }
  const names: string[] = [];
  for (const token of tokens) {
    const [type, value] = token as unknown as [string, string];
    if (type === "text") continue;
    if (type === "name") {
      names.push(value);
      continue;
    }
    const shown = type === "&" ? `{{&${value}}}` : type === "{" ? `{{{${value}}}}` : `{{${type}${value}}}`;
    return { error: `Only placeholders like {{customerName}} can be used; ${shown} is not allowed` };
  }
  return { names };
}

/** What is wrong with a business's template, field by field (empty: it can be saved). */
export function checkTemplate(kind: NoticeKind, template: NoticeTemplate): TemplateProblem[] {
  const spec = NOTICE_SPECS[kind];
  const known = Object.keys(spec.placeholders);
  const problems: TemplateProblem[] = [];
  for (const path of ["emailSubject", "emailBody", "smsBody"] as const) {
    const text = template[path];
    if (!text.trim()) {
      problems.push({ path, message: "Write the text of this message" });
      continue;
    }
    if (text.length > TEMPLATE_LIMITS[path]) {
      problems.push({ path, message: `Keep it to ${TEMPLATE_LIMITS[path]} characters (it has ${text.length})` });
      continue;
    }
    const found = placeholdersOf(text);
    if ("error" in found) {
      problems.push({ path, message: found.error });
      continue;
    }
    const unknown = found.names.filter((n) => !known.includes(n));
    if (unknown.length) {
      problems.push({
        path,
        message: `Unknown placeholder {{${unknown[0]}}}: use ${known.map((k) => `{{${k}}}`).join(", ")}`,
      });
      continue;
    }
    if (path === "smsBody") {
      if (!found.names.includes(spec.link)) {
        problems.push({ path, message: `The text message must include the link {{${spec.link}}}` });
        continue;
      }
      // The words around the placeholders, with the link at its length, must leave room for the values.
      const bare = renderText(text, { ...emptyValues(known), [spec.link]: spec.sample[spec.link] ?? SAMPLE_COMMON.portalLink });
      const counted = smsSegments(bare);
      if (counted.segments > SMS_MAX_SEGMENTS || bare.length > SMS_MAX_CHARACTERS - 40) {
        problems.push({
          path,
          message: `Too long for a text message: with the link it takes ${counted.characters} characters; keep it under ${SMS_MAX_CHARACTERS - 40} so the names fit in ${SMS_MAX_SEGMENTS} segments`,
        });
      }
    }
  }
  return problems;
}

const emptyValues = (names: string[]) => Object.fromEntries(names.map((n) => [n, ""]));

/** Plain text: values go in as they are (the email layout escapes its HTML; an SMS is text). */
export function renderText(text: string, values: Record<string, string>): string {
  return Mustache.render(text, values, undefined, { escape: (v: unknown) => String(v) });
}

export interface RenderedNotice {
  subject: string;
  /** Paragraphs of the email's body (blank lines separate them). */
  paragraphs: string[];
  sms: string;
}

export function renderNotice(kind: NoticeKind, template: NoticeTemplate, values: Record<string, string>): RenderedNotice {
  const known = Object.keys(NOTICE_SPECS[kind].placeholders);
  const filled = { ...emptyValues(known), ...values };
  const subject = renderText(template.emailSubject, filled).replace(/\s+/g, " ").trim();
  const paragraphs = renderText(template.emailBody, filled)
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  // In a text message money reads "NGN 40,000.00" (GSM-7), not "₦40,000.00" (UCS-2): smsMoney.
  const smsValues = Object.fromEntries(Object.entries(filled).map(([k, v]) => [k, smsMoney(v)]));
  return { subject, paragraphs, sms: fitSms(template.smsBody, smsValues, [NOTICE_SPECS[kind].link]) };
}

/** The sample rendering the dashboard previews. */
export const previewNotice = (kind: NoticeKind, template: NoticeTemplate) => renderNotice(kind, template, NOTICE_SPECS[kind].sample);

const fits = (text: string) => text.length <= SMS_MAX_CHARACTERS && smsSegments(text).segments <= SMS_MAX_SEGMENTS;

/** Letters with their accents taken off (Ọlọ́run → Olorun), which keeps a text in GSM-7 (half the price per character). */
const plainLetters = (text: string) => text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").normalize("NFC");

/** Cut with "..." (three GSM-7 characters; "…" is not in GSM-7 and would make the whole message UCS-2). */
const shorten = (value: string, length: number) =>
  value.length <= length ? value : `${value.slice(0, Math.max(1, length - 3)).trimEnd()}...`;

/**
 * An SMS's text kept to 2 segments: the values are shortened (the longest
 * first, never a link), then their accents dropped, then shortened again.
 * The template's own words were checked to leave room (checkTemplate).
 */
export function fitSms(template: string, values: Record<string, string>, links: string[]): string {
  const render = (v: Record<string, string>) => renderText(template, v).replace(/[ \t]+/g, " ").trim();
  let current = { ...values };
  let text = render(current);
  if (fits(text)) return text;
  const shortenable = Object.keys(current).filter((k) => !links.includes(k));
  const squeeze = (floor: number) => {
    for (let round = 0; round < 200 && !fits(text); round++) {
      const longest = shortenable
        .filter((k) => current[k]!.length > floor)
        .sort((a, b) => current[b]!.length - current[a]!.length)[0];
      if (!longest) return;
      const value = current[longest]!;
      current = { ...current, [longest]: shorten(value, Math.max(floor, Math.floor(value.length * 0.8))) };
      text = render(current);
    }
  };
  squeeze(24);
  if (fits(text)) return text;
  current = Object.fromEntries(Object.entries(current).map(([k, v]) => [k, links.includes(k) ? v : plainLetters(v)]));
  text = render(current);
  squeeze(1);
  return text;
}
