-- CreateEnum
CREATE TYPE "PolicyType" AS ENUM ('auto', 'home', 'health', 'life', 'travel', 'property', 'liability', 'business', 'other');

-- CreateEnum
CREATE TYPE "PolicyDuration" AS ENUM ('monthly', 'quarterly', 'yearly');

-- CreateEnum
CREATE TYPE "PaymentStatus" AS ENUM ('pending', 'success', 'failed');

-- CreateEnum
CREATE TYPE "ClaimType" AS ENUM ('accident', 'theft', 'fire', 'flood', 'medical', 'liability', 'other');

-- CreateEnum
CREATE TYPE "ClaimStatus" AS ENUM ('submitted', 'under_review', 'approved', 'rejected', 'paid');

-- CreateEnum
CREATE TYPE "LedgerType" AS ENUM ('payment', 'fee', 'withdrawal', 'withdrawal_reversal');

-- CreateTable
CREATE TABLE "policy" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" "PolicyType" NOT NULL,
    "description" TEXT,
    "duration" "PolicyDuration" NOT NULL,
    "priceMinor" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "coverage" TEXT,
    "benefits" TEXT[],
    "exclusions" TEXT[],
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "policy_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payment" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "policyId" TEXT NOT NULL,
    "reference" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "amountMinor" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "status" "PaymentStatus" NOT NULL DEFAULT 'pending',
    "provider" TEXT NOT NULL DEFAULT 'sandbox',
    "callbackUrl" TEXT,
    "paidAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "payment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "coverage" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "policyId" TEXT NOT NULL,
    "customerEmail" TEXT NOT NULL,
    "startsAt" TIMESTAMP(3) NOT NULL,
    "endsAt" TIMESTAMP(3) NOT NULL,
    "renewalCount" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "coverage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "claim" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "policyId" TEXT NOT NULL,
    "coverageId" TEXT,
    "type" "ClaimType" NOT NULL,
    "description" TEXT NOT NULL,
    "amountMinor" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "status" "ClaimStatus" NOT NULL DEFAULT 'submitted',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "claim_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ledger_transaction" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "type" "LedgerType" NOT NULL,
    "amountMinor" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "reference" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "policyId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_transaction_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "policy_organizationId_createdAt_id_idx" ON "policy"("organizationId", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "policy_organizationId_isActive_createdAt_id_idx" ON "policy"("organizationId", "isActive", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "policy_organizationId_type_createdAt_id_idx" ON "policy"("organizationId", "type", "createdAt" DESC, "id");

-- CreateIndex
CREATE UNIQUE INDEX "payment_reference_key" ON "payment"("reference");

-- CreateIndex
CREATE INDEX "payment_organizationId_createdAt_id_idx" ON "payment"("organizationId", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "payment_organizationId_status_createdAt_id_idx" ON "payment"("organizationId", "status", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "payment_organizationId_policyId_createdAt_id_idx" ON "payment"("organizationId", "policyId", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "coverage_organizationId_createdAt_id_idx" ON "coverage"("organizationId", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "coverage_organizationId_policyId_createdAt_id_idx" ON "coverage"("organizationId", "policyId", "createdAt" DESC, "id");

-- CreateIndex
CREATE UNIQUE INDEX "coverage_policyId_customerEmail_key" ON "coverage"("policyId", "customerEmail");

-- CreateIndex
CREATE INDEX "claim_organizationId_createdAt_id_idx" ON "claim"("organizationId", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "claim_organizationId_status_createdAt_id_idx" ON "claim"("organizationId", "status", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "claim_organizationId_policyId_createdAt_id_idx" ON "claim"("organizationId", "policyId", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "ledger_transaction_organizationId_createdAt_id_idx" ON "ledger_transaction"("organizationId", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "ledger_transaction_organizationId_policyId_createdAt_idx" ON "ledger_transaction"("organizationId", "policyId", "createdAt");

-- CreateIndex
CREATE INDEX "ledger_transaction_reference_idx" ON "ledger_transaction"("reference");

-- AddForeignKey
ALTER TABLE "policy" ADD CONSTRAINT "policy_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment" ADD CONSTRAINT "payment_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment" ADD CONSTRAINT "payment_policyId_fkey" FOREIGN KEY ("policyId") REFERENCES "policy"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "coverage" ADD CONSTRAINT "coverage_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "coverage" ADD CONSTRAINT "coverage_policyId_fkey" FOREIGN KEY ("policyId") REFERENCES "policy"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "claim" ADD CONSTRAINT "claim_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "claim" ADD CONSTRAINT "claim_policyId_fkey" FOREIGN KEY ("policyId") REFERENCES "policy"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "claim" ADD CONSTRAINT "claim_coverageId_fkey" FOREIGN KEY ("coverageId") REFERENCES "coverage"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_transaction" ADD CONSTRAINT "ledger_transaction_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
