-- CreateEnum
CREATE TYPE "RefundStatus" AS ENUM ('pending', 'processed', 'failed');

-- CreateEnum
CREATE TYPE "ClaimPayoutStatus" AS ENUM ('pending', 'processing', 'paid', 'failed');

-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "LedgerType" ADD VALUE 'refund';
ALTER TYPE "LedgerType" ADD VALUE 'refund_reversal';
ALTER TYPE "LedgerType" ADD VALUE 'claim_payout';
ALTER TYPE "LedgerType" ADD VALUE 'claim_payout_reversal';

-- AlterTable
ALTER TABLE "payment" ADD COLUMN     "refundedMinor" BIGINT NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "refund" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "paymentId" TEXT NOT NULL,
    "amountMinor" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "reason" TEXT,
    "status" "RefundStatus" NOT NULL DEFAULT 'pending',
    "failureReason" TEXT,
    "provider" TEXT NOT NULL DEFAULT 'sandbox',
    "reference" TEXT NOT NULL,
    "providerRefundId" TEXT,
    "sentAt" TIMESTAMP(3),
    "runAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedUntil" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "processedAt" TIMESTAMP(3),

    CONSTRAINT "refund_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "claim_payout" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "claimId" TEXT NOT NULL,
    "amountMinor" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "status" "ClaimPayoutStatus" NOT NULL DEFAULT 'pending',
    "failureReason" TEXT,
    "bankCode" TEXT NOT NULL,
    "bankName" TEXT NOT NULL,
    "accountName" TEXT NOT NULL,
    "accountNumberSealed" TEXT NOT NULL,
    "accountNumberLast4" TEXT NOT NULL,
    "provider" TEXT NOT NULL DEFAULT 'sandbox',
    "reference" TEXT NOT NULL,
    "recipientCode" TEXT,
    "providerTransferCode" TEXT,
    "runAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedUntil" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "paidAt" TIMESTAMP(3),
    "completedAt" TIMESTAMP(3),

    CONSTRAINT "claim_payout_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "refund_reference_key" ON "refund"("reference");

-- CreateIndex
CREATE INDEX "refund_organizationId_createdAt_id_idx" ON "refund"("organizationId", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "refund_organizationId_status_createdAt_id_idx" ON "refund"("organizationId", "status", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "refund_paymentId_idx" ON "refund"("paymentId");

-- CreateIndex
CREATE INDEX "refund_status_runAt_idx" ON "refund"("status", "runAt");

-- CreateIndex
CREATE INDEX "refund_provider_providerRefundId_idx" ON "refund"("provider", "providerRefundId");

-- CreateIndex
CREATE UNIQUE INDEX "claim_payout_reference_key" ON "claim_payout"("reference");

-- CreateIndex
CREATE INDEX "claim_payout_organizationId_createdAt_id_idx" ON "claim_payout"("organizationId", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "claim_payout_claimId_createdAt_idx" ON "claim_payout"("claimId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "claim_payout_status_runAt_idx" ON "claim_payout"("status", "runAt");

-- AddForeignKey
ALTER TABLE "refund" ADD CONSTRAINT "refund_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "refund" ADD CONSTRAINT "refund_paymentId_fkey" FOREIGN KEY ("paymentId") REFERENCES "payment"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "claim_payout" ADD CONSTRAINT "claim_payout_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "claim_payout" ADD CONSTRAINT "claim_payout_claimId_fkey" FOREIGN KEY ("claimId") REFERENCES "claim"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- CreateIndex
CREATE INDEX "ledger_transaction_organizationId_type_idx" ON "ledger_transaction"("organizationId", "type");

-- Written by hand (Prisma's schema cannot say it): at most one payout of a
-- claim that is pending, processing or paid, whatever races to create one.
CREATE UNIQUE INDEX "claim_payout_one_active" ON "claim_payout"("claimId")
  WHERE "status" IN ('pending', 'processing', 'paid');

-- New refunds and claim payouts wake the job runners of every instance at
-- their commit, as withdrawals do (migration job_notify).
CREATE TRIGGER "refund_jobs_notify" AFTER INSERT ON "refund"
  FOR EACH STATEMENT EXECUTE FUNCTION "coverdesk_jobs_notify"();

CREATE TRIGGER "claim_payout_jobs_notify" AFTER INSERT ON "claim_payout"
  FOR EACH STATEMENT EXECUTE FUNCTION "coverdesk_jobs_notify"();
