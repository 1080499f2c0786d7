-- AlterTable
ALTER TABLE "coverage" ADD COLUMN     "cancellationReason" TEXT,
ADD COLUMN     "cancelledAt" TIMESTAMP(3),
ADD COLUMN     "periodStartsAt" TIMESTAMP(3);

-- The current period of every stored coverage: what its latest payment bought,
-- one policy duration back from its end (never before its first purchase).
UPDATE "coverage" c SET "periodStartsAt" = GREATEST(c."startsAt", c."endsAt" - CASE p."duration"
    WHEN 'monthly' THEN INTERVAL '1 month' WHEN 'quarterly' THEN INTERVAL '3 months' ELSE INTERVAL '1 year' END)
  FROM "policy" p WHERE p."id" = c."policyId";
ALTER TABLE "coverage" ALTER COLUMN "periodStartsAt" SET NOT NULL;

-- AlterTable
ALTER TABLE "organization" ADD COLUMN     "coolingOffDays" INTEGER NOT NULL DEFAULT 14;

-- AlterTable
ALTER TABLE "refund" ADD COLUMN     "coverageId" TEXT;

-- CreateIndex
CREATE INDEX "claim_coverageId_idx" ON "claim"("coverageId");

-- CreateIndex
CREATE INDEX "refund_coverageId_idx" ON "refund"("coverageId");

-- AddForeignKey
ALTER TABLE "refund" ADD CONSTRAINT "refund_coverageId_fkey" FOREIGN KEY ("coverageId") REFERENCES "coverage"("id") ON DELETE SET NULL ON UPDATE CASCADE;
