-- AlterTable
ALTER TABLE "payment" ADD COLUMN     "authorizationUrl" TEXT NOT NULL DEFAULT '';

-- CreateIndex
CREATE INDEX "coverage_organizationId_endsAt_idx" ON "coverage"("organizationId", "endsAt");
