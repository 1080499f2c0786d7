-- AlterTable
ALTER TABLE "coverage" ADD COLUMN     "autoRenew" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "cardAuthorizationSealed" TEXT,
ADD COLUMN     "cardBrand" TEXT,
ADD COLUMN     "cardExpMonth" INTEGER,
ADD COLUMN     "cardExpYear" INTEGER,
ADD COLUMN     "cardLast4" TEXT,
ADD COLUMN     "cardNoticeAt" TIMESTAMP(3),
ADD COLUMN     "cardProvider" TEXT,
ADD COLUMN     "graceEndsAt" TIMESTAMP(3),
ADD COLUMN     "nextPremiumFrom" TIMESTAMP(3),
ADD COLUMN     "nextPremiumMinor" BIGINT,
ADD COLUMN     "premiumMinor" BIGINT,
ADD COLUMN     "renewAt" TIMESTAMP(3),
ADD COLUMN     "renewalAttempts" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "payment" ADD COLUMN     "autoRenew" BOOLEAN,
ADD COLUMN     "renewalAttempt" INTEGER,
ADD COLUMN     "renewalPeriodEndsAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "coverage_renewAt_idx" ON "coverage"("renewAt");

-- CreateIndex
CREATE INDEX "coverage_cardNoticeAt_idx" ON "coverage"("cardNoticeAt");

-- CreateIndex
CREATE INDEX "coverage_organizationId_graceEndsAt_idx" ON "coverage"("organizationId", "graceEndsAt");

-- CreateIndex
CREATE INDEX "payment_organizationId_renewalAttempt_createdAt_idx" ON "payment"("organizationId", "renewalAttempt", "createdAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "payment_coverageId_renewalPeriodEndsAt_renewalAttempt_key" ON "payment"("coverageId", "renewalPeriodEndsAt", "renewalAttempt");


-- What each existing coverage's current period cost: the latest payment that bought or renewed it.
UPDATE "coverage" c SET "premiumMinor" = (
  SELECT p."amountMinor" FROM "payment" p
  WHERE p."coverageId" = c.id AND p.status = 'success'
  ORDER BY p."paidAt" DESC NULLS LAST LIMIT 1);
