-- DropIndex
DROP INDEX "mail_task_kind_sourceId_recipient_key";

-- AlterTable
ALTER TABLE "customer" ADD COLUMN     "phone" TEXT,
ADD COLUMN     "smsOptOut" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "mail_task" ADD COLUMN     "channel" TEXT NOT NULL DEFAULT 'email',
ADD COLUMN     "customerEmail" TEXT,
ADD COLUMN     "failedAt" TIMESTAMP(3),
ADD COLUMN     "preview" TEXT;

-- AlterTable
ALTER TABLE "organization" ADD COLUMN     "notifyDigest" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "user" ADD COLUMN     "pendingPhone" TEXT,
ADD COLUMN     "phone" TEXT,
ADD COLUMN     "phoneCodeAttempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "phoneCodeExpiresAt" TIMESTAMP(3),
ADD COLUMN     "phoneCodeHash" TEXT,
ADD COLUMN     "phoneVerifiedAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "notification_template" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "emailSubject" TEXT NOT NULL,
    "emailBody" TEXT NOT NULL,
    "smsBody" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "notification_template_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "notification_template_organizationId_kind_key" ON "notification_template"("organizationId", "kind");

-- CreateIndex
CREATE INDEX "mail_task_organizationId_customerEmail_createdAt_id_idx" ON "mail_task"("organizationId", "customerEmail", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "mail_task_organizationId_kind_createdAt_idx" ON "mail_task"("organizationId", "kind", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "mail_task_kind_channel_sourceId_recipient_key" ON "mail_task"("kind", "channel", "sourceId", "recipient");

-- AddForeignKey
ALTER TABLE "notification_template" ADD CONSTRAINT "notification_template_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- The policyholder's mail so far belongs to their page too.
UPDATE "mail_task" SET "customerEmail" = "recipient"
WHERE "kind" IN ('customer_receipt', 'renewal_reminder', 'renewal_failed', 'renewal_stopped', 'card_expiring', 'premium_change', 'portal_code');
