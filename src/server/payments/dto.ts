// A payment row as the API shows it, and new payment references. Kept apart
// from the service so that settling (settle.ts, remote.ts) needs no service.
import crypto from "node:crypto";
import type { Payment as PaymentRow } from "@/generated/prisma/client";
import { formatMinor } from "@/lib/money";
import type { Payment } from "@/lib/schemas/payments";

export const toPayment = (row: PaymentRow): Payment => ({
  reference: row.reference,
  status: row.status,
  amount: formatMinor(row.amountMinor, row.currency),
  currency: row.currency,
  policyId: row.policyId,
  email: row.email,
  authorizationUrl: row.authorizationUrl,
  paidAt: row.paidAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
  amountRefunded: formatMinor(row.refundedMinor, row.currency),
  paymentLinkId: row.paymentLinkId,
  renewal:
    row.renewalPeriodEndsAt && row.renewalAttempt
      ? { periodEndsAt: row.renewalPeriodEndsAt.toISOString(), attempt: row.renewalAttempt }
      : null,
});

/** Unguessable and URL-safe: the reference is the capability to pay. */
export const newReference = () => `cdp_${crypto.randomBytes(18).toString("base64url")}`;

/** What the audit log keeps of a payment (its entries: payment.created, payment.succeeded, payment.failed). */
export const paymentAuditDetails = (row: PaymentRow) => ({
  reference: row.reference,
  amount: formatMinor(row.amountMinor, row.currency),
  currency: row.currency,
  policyId: row.policyId,
  email: row.email,
  paymentLinkId: row.paymentLinkId,
});
