-- CreateEnum
CREATE TYPE "WebhookStatus" AS ENUM ('enabled', 'disabled');

-- CreateTable
CREATE TABLE "webhook" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT[],
    "secretSealed" TEXT NOT NULL,
    "status" "WebhookStatus" NOT NULL DEFAULT 'enabled',
    "disabledReason" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "webhook_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_delivery" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "webhookId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "responseStatus" INTEGER,
    "durationMs" INTEGER,
    "error" TEXT,
    "responseExcerpt" TEXT,
    "requestHeaders" JSONB NOT NULL,
    "requestBody" TEXT NOT NULL,
    "nextRetryAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_delivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_task" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "webhookId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "nextAttempt" INTEGER NOT NULL DEFAULT 1,
    "runAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedUntil" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_task_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhook_organizationId_createdAt_id_idx" ON "webhook"("organizationId", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "webhook_organizationId_status_idx" ON "webhook"("organizationId", "status");

-- CreateIndex
CREATE INDEX "webhook_delivery_organizationId_createdAt_id_idx" ON "webhook_delivery"("organizationId", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "webhook_delivery_organizationId_webhookId_createdAt_id_idx" ON "webhook_delivery"("organizationId", "webhookId", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "webhook_delivery_organizationId_event_createdAt_id_idx" ON "webhook_delivery"("organizationId", "event", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "webhook_delivery_organizationId_status_createdAt_id_idx" ON "webhook_delivery"("organizationId", "status", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "webhook_delivery_webhookId_eventId_idx" ON "webhook_delivery"("webhookId", "eventId");

-- CreateIndex
CREATE INDEX "webhook_task_runAt_idx" ON "webhook_task"("runAt");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_task_webhookId_eventId_key" ON "webhook_task"("webhookId", "eventId");

-- AddForeignKey
ALTER TABLE "webhook" ADD CONSTRAINT "webhook_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_delivery" ADD CONSTRAINT "webhook_delivery_webhookId_fkey" FOREIGN KEY ("webhookId") REFERENCES "webhook"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_task" ADD CONSTRAINT "webhook_task_webhookId_fkey" FOREIGN KEY ("webhookId") REFERENCES "webhook"("id") ON DELETE CASCADE ON UPDATE CASCADE;
