// A declined renewal charge: the cover is past due — still valid
// until its grace period ends — the card is tried again 1, 3 and 5 days after
// the period's end, and the policyholder is told each time, with the declined
// charge's checkout page to pay by hand (the card paid with is saved). Runs in
// the settlement's transaction, beside the `payment.failed` event.
import { withPolicyholderSms } from "@/server/mail/plan";
import type { Payment as PaymentRow } from "@/generated/prisma/client";
import { formatMinor } from "@/lib/money";
import type { Tx } from "@/server/db/client";
import type { MailData } from "@/server/mail/kinds";

/** Days after the period's end the 2nd, 3rd and 4th charges are tried. */
export const RENEWAL_RETRY_DAYS = [1, 3, 5] as const;
/** Charges of one period at most: the first and its retries. */
export const RENEWAL_MAX_ATTEMPTS = RENEWAL_RETRY_DAYS.length + 1;
/** A try is never sooner than this after the previous one (a charge that started late does not burst its retries). */
const MIN_GAP_MS = 60 * 60_000;
const DAY_MS = 86_400_000;

/** When the charge after `attempt` declined ones is tried, or null when none is left. */
export function nextRenewalAttemptAt(periodEndsAt: Date, attempt: number, now: Date): Date | null {
  const days = RENEWAL_RETRY_DAYS[attempt - 1];
  if (days === undefined) return null;
  return new Date(Math.max(periodEndsAt.getTime() + days * DAY_MS, now.getTime() + MIN_GAP_MS));
}

export async function renewalDeclined(tx: Tx, payment: PaymentRow, now: Date): Promise<void> {
  if (!payment.coverageId || !payment.renewalPeriodEndsAt || !payment.renewalAttempt) return;
  const [coverage] = await tx.$queryRaw<
    {
      id: string;
      endsAt: Date;
      autoRenew: boolean;
      graceEndsAt: Date | null;
      cancelledAt: Date | null;
      renewalAttempts: number;
    }[]
  >`SELECT id, "endsAt", "autoRenew", "graceEndsAt", "cancelledAt", "renewalAttempts" FROM coverage WHERE id = ${payment.coverageId} FOR UPDATE`;
  // Renewed by hand, cancelled or moved on since the charge was started: nothing more to plan.
  if (!coverage || coverage.cancelledAt || coverage.endsAt.getTime() !== payment.renewalPeriodEndsAt.getTime()) return;
  const next = coverage.autoRenew ? nextRenewalAttemptAt(coverage.endsAt, payment.renewalAttempt, now) : null;
  // A retry is never after the grace period: the cover lapses then.
  const retryAt = next && coverage.graceEndsAt && next >= coverage.graceEndsAt ? null : next;
  await tx.coverage.update({ where: { id: coverage.id }, data: { renewAt: retryAt } });
  const data: MailData<"renewal_failed"> = {
    coverageId: coverage.id,
    policyId: payment.policyId,
    reference: payment.reference,
    amount: formatMinor(payment.amountMinor, payment.currency),
    currency: payment.currency,
    attempt: payment.renewalAttempt,
    reason: payment.failureReason,
    nextAttemptAt: retryAt?.toISOString() ?? null,
    graceEndsAt: coverage.graceEndsAt?.toISOString() ?? null,
  };
  await tx.mailTask.createMany({
    data: await withPolicyholderSms(tx, [
      {
        organizationId: payment.organizationId,
        kind: "renewal_failed",
        sourceId: payment.id,
        recipient: payment.email,
        customerEmail: payment.email,
        data,
        runAt: now,
      },
    ]),
    skipDuplicates: true,
  });
}
