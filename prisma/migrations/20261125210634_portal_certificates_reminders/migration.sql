-- AlterTable
ALTER TABLE "coverage" ADD COLUMN     "certificateNumber" TEXT,
ADD COLUMN     "lapseAt" TIMESTAMP(3),
ADD COLUMN     "remindAt" TIMESTAMP(3);

-- Existing coverages get their certificate number (COI- and 20 hex digits of a
-- random UUID's hash: 80 unguessable bits, the format the app writes), and the
-- reminders and expiry event of the period under way (ended ones get none).
UPDATE "coverage" SET "certificateNumber" = 'COI-' || upper(substr(md5(gen_random_uuid()::text || id), 1, 20));
ALTER TABLE "coverage" ALTER COLUMN "certificateNumber" SET NOT NULL,
ALTER COLUMN "certificateNumber" SET DEFAULT ('COI-'::text || upper(substr(md5((gen_random_uuid())::text), 1, 20)));
UPDATE "coverage" SET "lapseAt" = "endsAt", "remindAt" = "endsAt" - interval '14 days' WHERE "endsAt" > now();

-- AlterTable
ALTER TABLE "organization" ADD COLUMN     "accentColor" TEXT,
ADD COLUMN     "logoFileId" TEXT,
ADD COLUMN     "reminderDays" INTEGER[] NOT NULL DEFAULT ARRAY[14, 3]::INTEGER[];

-- CreateTable
CREATE TABLE "coverage_reminder" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "coverageId" TEXT NOT NULL,
    "periodEndsAt" TIMESTAMP(3) NOT NULL,
    "daysBefore" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "coverage_reminder_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "claim_attachment" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "claimId" TEXT NOT NULL,
    "fileId" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "claim_attachment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "portal_code" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "codeHash" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "portal_code_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "portal_session" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "portal_session_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "coverage_reminder_organizationId_coverageId_createdAt_idx" ON "coverage_reminder"("organizationId", "coverageId", "createdAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "coverage_reminder_coverageId_periodEndsAt_daysBefore_key" ON "coverage_reminder"("coverageId", "periodEndsAt", "daysBefore");

-- CreateIndex
CREATE UNIQUE INDEX "claim_attachment_fileId_key" ON "claim_attachment"("fileId");

-- CreateIndex
CREATE INDEX "claim_attachment_organizationId_claimId_createdAt_idx" ON "claim_attachment"("organizationId", "claimId", "createdAt");

-- CreateIndex
CREATE INDEX "portal_code_organizationId_email_createdAt_idx" ON "portal_code"("organizationId", "email", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "portal_code_expiresAt_idx" ON "portal_code"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "portal_session_tokenHash_key" ON "portal_session"("tokenHash");

-- CreateIndex
CREATE INDEX "portal_session_expiresAt_idx" ON "portal_session"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "coverage_certificateNumber_key" ON "coverage"("certificateNumber");

-- CreateIndex
CREATE INDEX "coverage_remindAt_idx" ON "coverage"("remindAt");

-- CreateIndex
CREATE INDEX "coverage_lapseAt_idx" ON "coverage"("lapseAt");

-- CreateIndex
CREATE UNIQUE INDEX "organization_logoFileId_key" ON "organization"("logoFileId");

-- AddForeignKey
ALTER TABLE "organization" ADD CONSTRAINT "organization_logoFileId_fkey" FOREIGN KEY ("logoFileId") REFERENCES "stored_file"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "coverage_reminder" ADD CONSTRAINT "coverage_reminder_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "coverage_reminder" ADD CONSTRAINT "coverage_reminder_coverageId_fkey" FOREIGN KEY ("coverageId") REFERENCES "coverage"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "claim_attachment" ADD CONSTRAINT "claim_attachment_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "claim_attachment" ADD CONSTRAINT "claim_attachment_claimId_fkey" FOREIGN KEY ("claimId") REFERENCES "claim"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "claim_attachment" ADD CONSTRAINT "claim_attachment_fileId_fkey" FOREIGN KEY ("fileId") REFERENCES "stored_file"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "portal_code" ADD CONSTRAINT "portal_code_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "portal_session" ADD CONSTRAINT "portal_session_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
