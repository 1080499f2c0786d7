-- AlterTable
ALTER TABLE "claim" ADD COLUMN     "approvedAmountMinor" BIGINT,
ADD COLUMN     "customerEmail" TEXT;

-- AlterTable
ALTER TABLE "coverage" ADD COLUMN     "customerName" TEXT;

-- AlterTable
ALTER TABLE "event" ADD COLUMN     "subject" TEXT;

-- AlterTable
ALTER TABLE "payment" ADD COLUMN     "coverageAction" TEXT,
ADD COLUMN     "coverageId" TEXT,
ADD COLUMN     "customerName" TEXT,
ADD COLUMN     "feeMinor" BIGINT;

-- CreateTable
CREATE TABLE "customer" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "paymentsCount" INTEGER NOT NULL DEFAULT 0,
    "totalPaidMinor" BIGINT NOT NULL DEFAULT 0,
    "lastPaidAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "customer_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "customer_organizationId_createdAt_id_idx" ON "customer"("organizationId", "createdAt" DESC, "id");

-- CreateIndex
CREATE UNIQUE INDEX "customer_organizationId_email_key" ON "customer"("organizationId", "email");

-- CreateIndex
CREATE INDEX "claim_organizationId_customerEmail_createdAt_id_idx" ON "claim"("organizationId", "customerEmail", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "coverage_organizationId_customerEmail_idx" ON "coverage"("organizationId", "customerEmail");

-- CreateIndex
CREATE INDEX "event_organizationId_subject_idx" ON "event"("organizationId", "subject");

-- CreateIndex
CREATE INDEX "payment_organizationId_email_createdAt_id_idx" ON "payment"("organizationId", "email", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "webhook_delivery_organizationId_eventId_createdAt_idx" ON "webhook_delivery"("organizationId", "eventId", "createdAt");

-- AddForeignKey
ALTER TABLE "payment" ADD CONSTRAINT "payment_coverageId_fkey" FOREIGN KEY ("coverageId") REFERENCES "coverage"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "customer" ADD CONSTRAINT "customer_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Backfill what was there before this migration.
-- The fee each successful payment paid, from its ledger entry (none: 0).
UPDATE "payment" p SET "feeMinor" = COALESCE(
  (SELECT -SUM(l."amountMinor") FROM "ledger_transaction" l
    WHERE l."organizationId" = p."organizationId" AND l."reference" = p."reference" AND l."type" = 'fee'), 0)
WHERE p."status" = 'success';

-- The coverage each successful payment created (its first) or renewed (the later ones).
UPDATE "payment" p SET "coverageId" = c."id",
  "coverageAction" = CASE WHEN r.rn = 1 THEN 'purchased' ELSE 'renewed' END
FROM (
  SELECT "id", row_number() OVER (PARTITION BY "policyId", "email" ORDER BY "paidAt", "createdAt", "id") AS rn
  FROM "payment" WHERE "status" = 'success'
) r, "coverage" c
WHERE r."id" = p."id" AND c."policyId" = p."policyId" AND c."customerEmail" = p."email";

-- A claim's customer, where it was linked to a coverage.
UPDATE "claim" SET "customerEmail" = c."customerEmail" FROM "coverage" c WHERE "claim"."coverageId" = c."id";

-- What each event is about.
UPDATE "event" SET "subject" = "data"->>'reference' WHERE "type" = 'payment.completed';
UPDATE "event" SET "subject" = "data"->'payment'->>'reference' WHERE "type" IN ('policy.purchased', 'policy.renewed');
UPDATE "event" SET "subject" = "data"->>'id' WHERE "type" = 'claim.submitted';

-- One customer per email that has paid, with its running totals.
INSERT INTO "customer" ("id", "organizationId", "email", "paymentsCount", "totalPaidMinor", "lastPaidAt", "createdAt", "updatedAt")
SELECT gen_random_uuid()::text, "organizationId", "email", COUNT(*)::int, SUM("amountMinor"),
       MAX("paidAt"), COALESCE(MIN("paidAt"), MIN("createdAt")), now()
FROM "payment" WHERE "status" = 'success'
GROUP BY "organizationId", "email";
