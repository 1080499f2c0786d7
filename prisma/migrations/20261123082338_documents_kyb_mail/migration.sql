-- CreateEnum
CREATE TYPE "KybStatus" AS ENUM ('not_submitted', 'pending', 'approved', 'rejected');

-- CreateEnum
CREATE TYPE "KybDocumentKind" AS ENUM ('certificateOfIncorporation', 'taxCertificate');

-- CreateTable
CREATE TABLE "stored_file" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "backend" TEXT NOT NULL,
    "storageKey" TEXT NOT NULL,
    "fileName" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "pageCount" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stored_file_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "certificate" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "fileId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "certificate_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "receipt_sample" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "fileId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "receipt_sample_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "kyb" (
    "organizationId" TEXT NOT NULL,
    "status" "KybStatus" NOT NULL DEFAULT 'not_submitted',
    "submittedAt" TIMESTAMP(3),
    "reviewedAt" TIMESTAMP(3),
    "rejectionReason" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "kyb_pkey" PRIMARY KEY ("organizationId")
);

-- CreateTable
CREATE TABLE "kyb_document" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "kind" "KybDocumentKind" NOT NULL,
    "fileId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "supersededAt" TIMESTAMP(3),

    CONSTRAINT "kyb_document_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "kyb_decision" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "reviewerId" TEXT NOT NULL,
    "decision" "KybStatus" NOT NULL,
    "reason" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "kyb_decision_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mail_task" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "sourceId" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "runAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedUntil" TIMESTAMP(3),
    "sentAt" TIMESTAMP(3),
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mail_task_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "stored_file_organizationId_createdAt_id_idx" ON "stored_file"("organizationId", "createdAt" DESC, "id");

-- CreateIndex
CREATE UNIQUE INDEX "certificate_fileId_key" ON "certificate"("fileId");

-- CreateIndex
CREATE INDEX "certificate_organizationId_createdAt_id_idx" ON "certificate"("organizationId", "createdAt" DESC, "id");

-- CreateIndex
CREATE UNIQUE INDEX "receipt_sample_fileId_key" ON "receipt_sample"("fileId");

-- CreateIndex
CREATE INDEX "receipt_sample_organizationId_createdAt_id_idx" ON "receipt_sample"("organizationId", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "kyb_status_submittedAt_idx" ON "kyb"("status", "submittedAt");

-- CreateIndex
CREATE UNIQUE INDEX "kyb_document_fileId_key" ON "kyb_document"("fileId");

-- CreateIndex
CREATE INDEX "kyb_document_organizationId_supersededAt_kind_idx" ON "kyb_document"("organizationId", "supersededAt", "kind");

-- CreateIndex
CREATE INDEX "kyb_decision_organizationId_createdAt_idx" ON "kyb_decision"("organizationId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "mail_task_sentAt_runAt_idx" ON "mail_task"("sentAt", "runAt");

-- CreateIndex
CREATE INDEX "mail_task_organizationId_createdAt_idx" ON "mail_task"("organizationId", "createdAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "mail_task_kind_sourceId_recipient_key" ON "mail_task"("kind", "sourceId", "recipient");

-- AddForeignKey
ALTER TABLE "stored_file" ADD CONSTRAINT "stored_file_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "certificate" ADD CONSTRAINT "certificate_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "certificate" ADD CONSTRAINT "certificate_fileId_fkey" FOREIGN KEY ("fileId") REFERENCES "stored_file"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "receipt_sample" ADD CONSTRAINT "receipt_sample_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "receipt_sample" ADD CONSTRAINT "receipt_sample_fileId_fkey" FOREIGN KEY ("fileId") REFERENCES "stored_file"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "kyb" ADD CONSTRAINT "kyb_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "kyb_document" ADD CONSTRAINT "kyb_document_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "kyb_document" ADD CONSTRAINT "kyb_document_fileId_fkey" FOREIGN KEY ("fileId") REFERENCES "stored_file"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "kyb_decision" ADD CONSTRAINT "kyb_decision_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "kyb_decision" ADD CONSTRAINT "kyb_decision_reviewerId_fkey" FOREIGN KEY ("reviewerId") REFERENCES "user"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mail_task" ADD CONSTRAINT "mail_task_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
