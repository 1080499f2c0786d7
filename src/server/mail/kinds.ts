// The mails the platform sends and what each task row keeps in `data`: only
// what the event carried. Anything else (names, dates, the receipt file) is
// read when the mail is sent, so event payloads — published to webhooks —
// never change for the sake of an email.
import { z } from "@/lib/messages";
import { nextAttemptAt, scheduleOf } from "@/server/jobs/retry";

export const MAIL_KINDS = [
  "payment_received",
  "customer_receipt",
  "claim_submitted",
  "kyb_approved",
  "kyb_rejected",
  "withdrawal_failed",
  "renewal_reminder",
  /** To the policyholder: a renewal charge of the saved card was declined (what happens next, where to pay by hand). */
  "renewal_failed",
  /** To the policyholder: an auto-renewing cover was not renewed because the policy is no longer on sale. */
  "renewal_stopped",
  /** To the policyholder: the saved card expires before the next renewal charge. */
  "card_expiring",
  /** To the policyholder: the premium of an auto-renewing cover changes, and from when. */
  "premium_change",
  /** A policyholder portal sign-in code: decided and composed by src/server/portal/auth.ts (composePortalCode): by SMS when asked so and a phone is on file. */
  "portal_code",
  /** To the policyholder: their claim was filed, decided (approved, rejected) or paid. */
  "claim_received",
  "claim_approved",
  "claim_rejected",
  "claim_paid",
  /** To the policyholder: a refund of their payment went through. */
  "refund",
  /** To the policyholder: their cover was cancelled. */
  "cancellation",
  /** To the owners and admins: the day's payments past the 20th, in one message (Settings → Notifications → daily digest). */
  "payment_digest",
  /** To the owners and admins: a webhook endpoint was disabled by the platform (it answered 410 Gone). */
  "webhook_disabled",
  /** To the owners and admins: a claim payout to a policyholder's bank failed. */
  "payout_failed",
  /** To a dashboard user: the code that verifies the phone on their profile (SMS only; the code is made when it is sent). */
  "phone_code",
  /** To a dashboard user: a notice template as it reads, with sample data ("Send me a test"). */
  "template_test",
  /** To a dashboard user: their account was signed in to from a device not seen in 90 days. */
  "new_sign_in",
] as const;
export type MailChannel = "email" | "sms";
export type MailKind = (typeof MAIL_KINDS)[number];

const PaymentData = z.object({
  reference: z.string(),
  amount: z.string(),
  currency: z.string(),
  policyId: z.string(),
  email: z.string(),
  paidAt: z.string().nullable(),
});
const ClaimData = z.object({
  id: z.string(),
  type: z.string(),
  amount: z.string(),
  currency: z.string(),
  policyId: z.string(),
  description: z.string(),
});

export const MAIL_DATA = {
  payment_received: PaymentData,
  customer_receipt: PaymentData,
  claim_submitted: ClaimData,
  kyb_approved: z.object({}),
  kyb_rejected: z.object({ reason: z.string() }),
  withdrawal_failed: z.object({
    id: z.string(),
    amount: z.string(),
    currency: z.string(),
    bankAccountId: z.string(),
    failureReason: z.string(),
  }),
  /** To the policyholder, some days before a coverage ends (written by the lifecycle job, not from an event). */
  renewal_reminder: z.object({
    coverageId: z.string(),
    policyId: z.string(),
    /** The end of the period the reminder is about. */
    endsAt: z.string(),
    daysBefore: z.number().int(),
  }),
  renewal_failed: z.object({
    coverageId: z.string(),
    policyId: z.string(),
    /** The declined charge (its checkout page offers to pay by hand). */
    reference: z.string(),
    amount: z.string(),
    currency: z.string(),
    attempt: z.number().int(),
    reason: z.string().nullable(),
    /** The next try, or null when none is left. */
    nextAttemptAt: z.string().nullable(),
    /** Until when the cover stays valid unpaid. */
    graceEndsAt: z.string().nullable(),
  }),
  renewal_stopped: z.object({ coverageId: z.string(), policyId: z.string(), endsAt: z.string() }),
  card_expiring: z.object({
    coverageId: z.string(),
    policyId: z.string(),
    /** The renewal charge the card will not last until. */
    endsAt: z.string(),
    last4: z.string(),
    expMonth: z.number().int(),
    expYear: z.number().int(),
  }),
  premium_change: z.object({
    coverageId: z.string(),
    policyId: z.string(),
    amount: z.string(),
    currency: z.string(),
    /** Renewals charged at or after this time pay the new premium. */
    from: z.string(),
  }),
  /** Nothing: whether the recipient has cover, and the code, are decided when it is sent. */
  portal_code: z.object({}),
  claim_received: z.object({ claimId: z.string() }),
  claim_approved: z.object({ claimId: z.string() }),
  claim_rejected: z.object({ claimId: z.string() }),
  claim_paid: z.object({ claimId: z.string() }),
  refund: z.object({ id: z.string(), paymentReference: z.string(), amount: z.string(), currency: z.string() }),
  cancellation: z.object({ id: z.string(), policyId: z.string(), cancelledAt: z.string().nullable() }),
  /** The UTC day (YYYY-MM-DD) whose payments it sums up; sent the next morning. */
  payment_digest: z.object({ day: z.string() }),
  webhook_disabled: z.object({ webhookId: z.string(), url: z.string(), reason: z.string() }),
  payout_failed: z.object({
    id: z.string(),
    claimId: z.string(),
    amount: z.string(),
    currency: z.string(),
    failureReason: z.string().nullable(),
  }),
  /** Nothing: the code is made, and its HMAC kept on the user, when the SMS is sent. */
  phone_code: z.object({ userId: z.string() }),
  new_sign_in: z.object({ browser: z.string(), system: z.string(), ipAddress: z.string().nullable(), at: z.string() }),
  template_test: z.object({
    template: z.string(),
    emailSubject: z.string(),
    emailBody: z.string(),
    smsBody: z.string(),
  }),
} satisfies Record<MailKind, z.ZodType>;

export type MailData<K extends MailKind> = z.output<(typeof MAIL_DATA)[K]>;

/** A task's data, read as its kind's (a task of another shape throws: it is retried, then given up). */
export const taskData = <K extends MailKind>(kind: K, task: { data: unknown }): MailData<K> =>
  MAIL_DATA[kind].parse(task.data) as MailData<K>;

/** Seconds before the retry after the n-th failed attempt; once they run out the task is given up (and kept, with its error). */
export const MAIL_RETRY_SCHEDULE_S = [60, 300, 1800, 7200, 21600] as const;
/** The mail job's retry table (src/server/mail/sender.ts declares what is done when it runs out). */
export const MAIL_RETRY = scheduleOf(() => MAIL_RETRY_SCHEDULE_S);
export const MAIL_MAX_ATTEMPTS = MAIL_RETRY.maxAttempts;

/** When the try after `attempts` failures is due, or null when the task is given up. */
export function nextMailAttemptAt(attempts: number, now = Date.now()): Date | null {
  return nextAttemptAt(MAIL_RETRY, attempts, null, now);
}
