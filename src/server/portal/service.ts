// What a signed-in policyholder may see and do at one business: their own
// coverages, payments and claims — rows of that organization whose email is
// the session's verified email, nothing else. Anything outside that is "not
// found", exactly like an id that does not exist.
import type { Actor } from "@/server/actor";
import { payoutProviderFor } from "@/server/payouts/provider";
import type { ClaimantAccount, ClaimantAccountInput } from "@/lib/schemas/claim-payouts";
import { setClaimantAccount } from "@/server/claim-payouts/service";
import { GivenAmount } from "@/lib/money";
import { minorOf } from "@/server/money";
import { MAX_CLAIM_ATTACHMENTS } from "@/server/claims/attachments";
import { fileClaim, toClaim } from "@/server/claims/service";
import { cancelCoverageOf, cancellationQuoteFor } from "@/server/coverages/cancel";
import { certificatePdf, verifyUrl } from "@/server/coverages/certificate";
import { coverageStatus } from "@/server/coverages/status";
import { db } from "@/server/db/client";
import { AppError, notFound } from "@/server/errors";
import type { UploadedFile } from "@/server/files/multipart";
import { storageNamed } from "@/server/files/storage";
import { initializePayment } from "@/server/payments/service";
import { formatMinor } from "@/lib/money";
import { portalUrl, type PortalSession } from "./auth";
import type { CoverageStatus, PortalCancelInput, SavedCard } from "@/lib/schemas/coverages";
import { savedCardOf } from "@/server/coverages/service";
import { removeCardOf, setAutoRenewOf } from "@/server/renewals/service";
import type { PortalClaimInput } from "@/lib/schemas/portal";

const LIST_LIMIT = 50;

export interface PortalCoverage {
  id: string;
  certificateNumber: string;
  verifyUrl: string;
  status: CoverageStatus;
  startsAt: string;
  periodStartsAt: string;
  endsAt: string;
  renewalCount: number;
  cancelledAt: string | null;
  /** Renews automatically with the saved card at the end of each period. */
  autoRenew: boolean;
  card: SavedCard | null;
  /** past_due: valid until then while the renewal is tried again. */
  graceEndsAt: string | null;
  policy: { id: string; name: string; type: string; duration: string; price: string; currency: string; onSale: boolean };
}

export interface PortalPayment {
  reference: string;
  status: string;
  amount: string;
  currency: string;
  policyName: string;
  createdAt: string;
  paidAt: string | null;
  /** Where a payment still pending can be completed. */
  payUrl: string | null;
}

export interface PortalClaim {
  id: string;
  coverageId: string | null;
  policyName: string;
  type: string;
  description: string;
  amount: string;
  approvedAmount: string | null;
  /** Where the policyholder asked to be paid, once approved (never the full number). */
  payoutAccount: ClaimantAccount | null;
  currency: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  attachmentCount: number;
}

const coverageSelect = {
  id: true,
  certificateNumber: true,
  startsAt: true,
  periodStartsAt: true,
  endsAt: true,
  cancelledAt: true,
  renewalCount: true,
  customerName: true,
  autoRenew: true,
  graceEndsAt: true,
  cardBrand: true,
  cardLast4: true,
  cardExpMonth: true,
  cardExpYear: true,
  policy: { select: { id: true, name: true, type: true, duration: true, priceMinor: true, currency: true, isActive: true } },
} as const;

type CoverageRow = {
  id: string;
  certificateNumber: string;
  startsAt: Date;
  periodStartsAt: Date;
  endsAt: Date;
  cancelledAt: Date | null;
  renewalCount: number;
  customerName?: string | null;
  autoRenew: boolean;
  graceEndsAt: Date | null;
  cardBrand: string | null;
  cardLast4: string | null;
  cardExpMonth: number | null;
  cardExpYear: number | null;
  policy: { id: string; name: string; type: string; duration: string; priceMinor: bigint; currency: string; isActive: boolean };
};

const toPortalCoverage = (c: CoverageRow, now: Date): PortalCoverage => ({
  id: c.id,
  certificateNumber: c.certificateNumber,
  verifyUrl: verifyUrl(c.certificateNumber),
  status: coverageStatus(c, now),
  startsAt: c.startsAt.toISOString(),
  periodStartsAt: c.periodStartsAt.toISOString(),
  endsAt: c.endsAt.toISOString(),
  cancelledAt: c.cancelledAt?.toISOString() ?? null,
  renewalCount: c.renewalCount,
  autoRenew: c.autoRenew,
  card: savedCardOf(c),
  graceEndsAt: c.graceEndsAt?.toISOString() ?? null,
  policy: {
    id: c.policy.id,
    name: c.policy.name,
    type: c.policy.type,
    duration: c.policy.duration,
    price: formatMinor(c.policy.priceMinor, c.policy.currency),
    currency: c.policy.currency,
    onSale: c.policy.isActive,
  },
});

type ClaimRowWithPolicy = Parameters<typeof toClaim>[0] & { policy: { name: string }; _count: { attachments: number } };

const toPortalClaim = (row: ClaimRowWithPolicy): PortalClaim => {
  const c = toClaim(row);
  return {
    id: c.id,
    coverageId: c.coverageId,
    policyName: row.policy.name,
    type: c.type,
    description: c.description,
    amount: c.amount,
    approvedAmount: c.approvedAmount,
    payoutAccount: c.payoutAccount,
    currency: c.currency,
    status: c.status,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    attachmentCount: row._count.attachments,
  };
};

const claimInclude = { policy: { select: { name: true } }, _count: { select: { attachments: true } } } as const;

/** Everything on the portal's home: coverages (soonest end first among active), payments and claims, newest first. */
export async function portalOverview(s: PortalSession, now = new Date()) {
  const mine = { organizationId: s.organizationId };
  const [coverages, payments, claims] = await Promise.all([
    db.coverage.findMany({
      where: { ...mine, customerEmail: s.email },
      select: coverageSelect,
      orderBy: [{ endsAt: "desc" }, { id: "asc" }],
      take: 100,
    }),
    db.payment.findMany({
      where: { ...mine, email: s.email },
      include: { policy: { select: { name: true } } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: LIST_LIMIT,
    }),
    db.claim.findMany({
      where: { ...mine, customerEmail: s.email },
      include: claimInclude,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: LIST_LIMIT,
    }),
  ]);
  return {
    coverages: coverages.map((c) => toPortalCoverage(c, now)),
    payments: payments.map((p): PortalPayment => ({
      reference: p.reference,
      status: p.status,
      amount: formatMinor(p.amountMinor, p.currency),
      currency: p.currency,
      policyName: p.policy.name,
      createdAt: p.createdAt.toISOString(),
      paidAt: p.paidAt?.toISOString() ?? null,
      payUrl: p.status === "pending" ? p.authorizationUrl || null : null,
    })),
    claims: claims.map(toPortalClaim),
  };
}

async function ownCoverage(s: PortalSession, coverageId: string): Promise<CoverageRow> {
  if (!/^[\w-]{1,100}$/.test(coverageId)) throw notFound("Coverage");
  const row = await db.coverage.findFirst({
    where: { id: coverageId, organizationId: s.organizationId, customerEmail: s.email },
    select: coverageSelect,
  });
  if (!row) throw notFound("Coverage");
  return row;
}

/** One of the policyholder's coverages with its claims. */
export async function portalCoverage(s: PortalSession, coverageId: string, now = new Date()) {
  const row = await ownCoverage(s, coverageId);
  const claims = await db.claim.findMany({
    where: { organizationId: s.organizationId, customerEmail: s.email, coverageId: row.id },
    include: claimInclude,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: LIST_LIMIT,
  });
  return { coverage: toPortalCoverage(row, now), claims: claims.map(toPortalClaim) };
}

/** The certificate of one of the policyholder's coverages. */
export async function portalCertificate(s: PortalSession, coverageId: string) {
  const row = await ownCoverage(s, coverageId);
  return certificatePdf(s.organizationId, row.id);
}

/** A payment of the policyholder's, as a receipt. */
export async function portalPayment(s: PortalSession, reference: string) {
  if (!/^[\w-]{1,100}$/.test(reference)) throw notFound("Payment");
  const p = await db.payment.findFirst({
    where: { reference, organizationId: s.organizationId, email: s.email },
    include: {
      policy: { select: { name: true, type: true, duration: true } },
      coverage: { select: { certificateNumber: true } },
    },
  });
  if (!p) throw notFound("Payment");
  return {
    reference: p.reference,
    status: p.status,
    amount: formatMinor(p.amountMinor, p.currency),
    currency: p.currency,
    email: p.email,
    customerName: p.customerName,
    policy: p.policy,
    coverageId: p.coverageId,
    certificateNumber: p.coverage?.certificateNumber ?? null,
    coverageAction: p.coverageAction,
    createdAt: p.createdAt.toISOString(),
    paidAt: p.paidAt?.toISOString() ?? null,
    failureReason: p.failureReason,
  };
}

/** The portal acts on the business's data as the policyholder: a stand-in actor that may start payments and file claims, nothing more is called with it. */
async function holderActor(s: PortalSession): Promise<Actor> {
  const org = await db.organization.findUniqueOrThrow({
    where: { id: s.organizationId },
    select: { livemode: true, liveOrganizationId: true },
  });
  return {
    organizationId: s.organizationId,
    accountId: org.liveOrganizationId ?? s.organizationId,
    livemode: org.livemode,
    userId: `portal:${s.id}`,
    role: "MEMBER",
  };
}

/** Starts a renewal: a new payment of the policy's price through the hosted checkout, back to the coverage afterwards. */
export async function renewCoverage(
  s: PortalSession,
  coverageId: string,
): Promise<{ reference: string; authorizationUrl: string }> {
  const row = await ownCoverage(s, coverageId);
  if (row.cancelledAt) {
    throw new AppError(
      "coverage_cancelled",
      "This cover was cancelled, so it cannot be renewed. Buy the policy again to start new cover.",
    );
  }
  if (!row.policy.isActive)
    throw new AppError("policy_inactive", "This policy is no longer sold, so it cannot be renewed here. Contact the business.");
  const payment = await initializePayment(await holderActor(s), {
    // The checkout's "Renew automatically" box starts as the cover is now.
    autoRenew: row.autoRenew,
    policyId: row.policy.id,
    amount: GivenAmount.ofMinor(row.policy.priceMinor, row.policy.currency),
    email: s.email,
    callbackUrl: portalUrl(s.organizationId, `/coverages/${row.id}`),
    // The checkout fills in the name the cover is in.
    name: row.customerName ?? undefined,
  });
  return { reference: payment.reference, authorizationUrl: payment.authorizationUrl };
}

/** The policyholder switches automatic renewal of one of their coverages. */
export async function portalSetAutoRenew(s: PortalSession, coverageId: string, autoRenew: boolean) {
  if (!/^[\w-]{1,100}$/.test(coverageId)) throw notFound("Coverage");
  const c = await setAutoRenewOf({ organizationId: s.organizationId, customerEmail: s.email }, coverageId, autoRenew);
  return { autoRenew: c.autoRenew, card: c.card, status: c.status };
}

/** The policyholder removes the saved card of one of their coverages (automatic renewal stops with it). */
export async function portalRemoveCard(s: PortalSession, coverageId: string) {
  if (!/^[\w-]{1,100}$/.test(coverageId)) throw notFound("Coverage");
  const c = await removeCardOf({ organizationId: s.organizationId, customerEmail: s.email }, coverageId);
  return { autoRenew: c.autoRenew, card: c.card, status: c.status };
}

/** What cancelling one of the policyholder's coverages now would refund. */
export async function portalCancellationQuote(s: PortalSession, coverageId: string) {
  return cancellationQuoteFor(s.organizationId, coverageId, s.email);
}

/** The policyholder cancels one of their coverages (refund by the business's rule), after seeing the quote. */
export async function portalCancelCoverage(s: PortalSession, coverageId: string, input: PortalCancelInput) {
  const cancelled = await cancelCoverageOf(
    s.organizationId,
    coverageId,
    { ...input, refund: "auto" },
    { customerEmail: s.email },
  );
  return { status: cancelled.status, cancelledAt: cancelled.cancelledAt, refund: cancelled.refund };
}

/** Files a claim on one of the policyholder's coverages, with its evidence: the one claim-filing service (all of it or nothing). */
export async function filePortalClaim(s: PortalSession, input: PortalClaimInput, uploads: UploadedFile[]): Promise<PortalClaim> {
  if (uploads.length > MAX_CLAIM_ATTACHMENTS) {
    throw new AppError("validation_failed", `Attach at most ${MAX_CLAIM_ATTACHMENTS} files`, {
      errors: [{ path: "files", message: `Attach at most ${MAX_CLAIM_ATTACHMENTS} files` }],
    });
  }
  const coverage = await ownCoverage(s, input.coverageId);
  const { row, submitted } = await fileClaim(
    s.organizationId,
    {
      policy: coverage.policy,
      coverageId: coverage.id,
      customerEmail: s.email,
      type: input.type,
      description: input.description,
      amountMinor: minorOf(input.amount, coverage.policy.currency, "amount"),
      filedBy: { note: "Filed by the policyholder on the portal" },
      source: "portal",
    },
    uploads,
  );
  return toPortalClaim({ ...row, policy: { name: coverage.policy.name }, _count: { attachments: submitted.attachments.length } });
}

/** The banks a policyholder of this business can be paid at (the provider of the business's mode). */
export async function portalBanks(s: PortalSession, currency: string) {
  const org = await db.organization.findUniqueOrThrow({ where: { id: s.organizationId }, select: { livemode: true } });
  return payoutProviderFor(org.livemode).banks(currency);
}

/** Where the policyholder asks one of their approved claims to be paid (bank and account; the name as the bank gives it). */
export async function portalSetPayoutAccount(
  s: PortalSession,
  claimId: string,
  input: ClaimantAccountInput,
): Promise<ClaimantAccount> {
  if (!/^[\w-]{1,100}$/.test(claimId)) throw notFound("Claim");
  return setClaimantAccount(s.organizationId, claimId, input, s.email);
}

/** One of the policyholder's claims: its status history (dates and states, not the reviewers' notes) and attachments. */
export async function portalClaim(s: PortalSession, claimId: string) {
  if (!/^[\w-]{1,100}$/.test(claimId)) throw notFound("Claim");
  const row = await db.claim.findFirst({
    where: { id: claimId, organizationId: s.organizationId, customerEmail: s.email },
    include: {
      ...claimInclude,
      history: {
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        take: 100,
        select: { id: true, fromStatus: true, toStatus: true, createdAt: true },
      },
      attachments: {
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        select: { id: true, createdAt: true, file: { select: { fileName: true, contentType: true, size: true } } },
      },
      payouts: {
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: 1,
        select: { status: true, amountMinor: true, currency: true, bankName: true, accountNumberLast4: true, paidAt: true },
      },
    },
  });
  if (!row) throw notFound("Claim");
  const payout = row.payouts[0];
  return {
    claim: toPortalClaim(row),
    /** The latest payment of the claim to the policyholder, if any. */
    payout: payout
      ? {
          status: payout.status,
          amount: formatMinor(payout.amountMinor, payout.currency),
          currency: payout.currency,
          bankName: payout.bankName,
          accountNumberLast4: payout.accountNumberLast4,
          paidAt: payout.paidAt?.toISOString() ?? null,
        }
      : null,
    history: row.history.map((h) => ({
      id: h.id,
      fromStatus: h.fromStatus,
      toStatus: h.toStatus,
      at: h.createdAt.toISOString(),
    })),
    attachments: row.attachments.map((a) => ({
      id: a.id,
      fileName: a.file.fileName,
      contentType: a.file.contentType,
      size: a.file.size,
      createdAt: a.createdAt.toISOString(),
    })),
  };
}

/** The bytes of an attachment of one of the policyholder's claims. */
export async function portalAttachment(s: PortalSession, attachmentId: string) {
  if (!/^[\w-]{1,100}$/.test(attachmentId)) throw notFound("File");
  const a = await db.claimAttachment.findFirst({
    where: { id: attachmentId, organizationId: s.organizationId, claim: { customerEmail: s.email } },
    include: { file: true },
  });
  if (!a) throw notFound("File");
  const body = await storageNamed(a.file.backend).get(a.file.storageKey);
  if (!body) throw notFound("File");
  return { file: a.file, body };
}
