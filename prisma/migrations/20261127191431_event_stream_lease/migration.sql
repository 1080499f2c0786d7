-- CreateTable
CREATE TABLE "event_stream_lease" (
    "id" TEXT NOT NULL,
    "apiKeyId" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "event_stream_lease_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "event_stream_lease_apiKeyId_expiresAt_idx" ON "event_stream_lease"("apiKeyId", "expiresAt");
