// Every job kind the runner knows, in the order of a pass: what a request
// just committed comes first — the fan-out of outbox events to webhook and
// mail tasks, webhook delivery, mail — then payouts and the coverage lifecycle
// (reminder mail, coverage.expiring / coverage.expired), and the sweeps now
// and then. A pass that did anything is followed at once by another, so the
// events and mail a payout or a reminder wrote go out straight after it.
// A new kind (refunds, renewal charges, SMS) is one `rowJob` or `passJob`
// declaration beside its domain code and one line here; its rows need `id`,
// `runAt` and `lockedUntil`, and its table an insert trigger (see the
// job_notify migration) if other instances should start on them at once.
import { auditRetentionJob } from "@/server/audit/retention";
import { runCoverageLifecycle } from "@/server/coverages/lifecycle";
import { sweepOrphanFiles } from "@/server/files/orphans";
import { sweepExpiredRows } from "@/server/housekeeping";
import { mailJob } from "@/server/mail/sender";
import { expireUnpaidLinkPayments } from "@/server/payment-links/expiry";
import { claimPayoutJob } from "@/server/claim-payouts/job";
import { payoutJob } from "@/server/payouts/job";
import { refundJob } from "@/server/refunds/job";
import { runRenewals } from "@/server/renewals/job";
import { webhookDeliveryJob, webhookDispatchJob } from "@/server/webhooks/jobs";
import { passJob, type Job } from "./kind";

const SWEEP_EVERY_MS = 10 * 60_000;

export const coverageLifecycleJob = passJob({
  kind: "coverage.lifecycle",
  // Two index range reads when nothing is due; it batches by itself.
  run: async () => {
    const { reminders, expired } = await runCoverageLifecycle();
    return reminders + expired;
  },
});

export const renewalJob = passJob({
  kind: "coverage.renewals",
  lane: "renewal",
  // One index range read (coverage.renewAt, then cardNoticeAt) when nothing is due; it batches by itself.
  run: async () => {
    const r = await runRenewals();
    return r.charged + r.stopped + r.cardNotices;
  },
});

export const sweepJob = passJob({
  kind: "sweep",
  everyMs: SWEEP_EVERY_MS,
  run: async () => {
    const rows = await sweepExpiredRows();
    const files = await sweepOrphanFiles();
    const payments = await expireUnpaidLinkPayments();
    return (
      rows.idempotencyKeys +
      rows.rateLimitWindows +
      rows.mailTasks +
      rows.portal +
      rows.events +
      rows.streamLeases +
      files +
      payments
    );
  },
});

export const JOBS: readonly Job[] = [
  webhookDispatchJob,
  webhookDeliveryJob,
  mailJob,
  payoutJob,
  refundJob,
  claimPayoutJob,
  renewalJob,
  coverageLifecycleJob,
  sweepJob,
  auditRetentionJob,
];
