-- CreateEnum
CREATE TYPE "BankAccountStatus" AS ENUM ('pending_verification', 'verified', 'verification_failed');

-- CreateEnum
CREATE TYPE "WithdrawalStatus" AS ENUM ('pending', 'processing', 'paid', 'failed');

-- CreateTable
CREATE TABLE "bank_account" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "bankName" TEXT NOT NULL,
    "accountName" TEXT NOT NULL,
    "accountNumberSealed" TEXT NOT NULL,
    "accountNumberLast4" TEXT NOT NULL,
    "accountNumberHash" TEXT NOT NULL,
    "status" "BankAccountStatus" NOT NULL DEFAULT 'pending_verification',
    "isDefault" BOOLEAN NOT NULL DEFAULT false,
    "verificationCodeHash" TEXT NOT NULL,
    "failedAttempts" INTEGER NOT NULL DEFAULT 0,
    "provider" TEXT NOT NULL DEFAULT 'sandbox',
    "recipientCode" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "verifiedAt" TIMESTAMP(3),
    "deletedAt" TIMESTAMP(3),

    CONSTRAINT "bank_account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "withdrawal" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "bankAccountId" TEXT NOT NULL,
    "amountMinor" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "status" "WithdrawalStatus" NOT NULL DEFAULT 'pending',
    "failureReason" TEXT,
    "provider" TEXT NOT NULL DEFAULT 'sandbox',
    "reference" TEXT NOT NULL,
    "providerTransferCode" TEXT,
    "runAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedUntil" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "retriedById" TEXT,
    "retriedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "completedAt" TIMESTAMP(3),

    CONSTRAINT "withdrawal_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "bank_account_organizationId_createdAt_id_idx" ON "bank_account"("organizationId", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "bank_account_organizationId_accountNumberHash_idx" ON "bank_account"("organizationId", "accountNumberHash");

-- CreateIndex
CREATE UNIQUE INDEX "withdrawal_reference_key" ON "withdrawal"("reference");

-- CreateIndex
CREATE INDEX "withdrawal_organizationId_createdAt_id_idx" ON "withdrawal"("organizationId", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "withdrawal_organizationId_status_idx" ON "withdrawal"("organizationId", "status");

-- CreateIndex
CREATE INDEX "withdrawal_bankAccountId_status_idx" ON "withdrawal"("bankAccountId", "status");

-- CreateIndex
CREATE INDEX "withdrawal_status_runAt_idx" ON "withdrawal"("status", "runAt");

-- CreateIndex
CREATE INDEX "withdrawal_createdAt_id_idx" ON "withdrawal"("createdAt" DESC, "id");

-- AddForeignKey
ALTER TABLE "bank_account" ADD CONSTRAINT "bank_account_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "withdrawal" ADD CONSTRAINT "withdrawal_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "withdrawal" ADD CONSTRAINT "withdrawal_bankAccountId_fkey" FOREIGN KEY ("bankAccountId") REFERENCES "bank_account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
