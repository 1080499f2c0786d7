-- CreateTable
CREATE TABLE "claim_status_change" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "claimId" TEXT NOT NULL,
    "fromStatus" "ClaimStatus",
    "toStatus" "ClaimStatus" NOT NULL,
    "note" TEXT,
    "actorUserId" TEXT,
    "apiKeyId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "claim_status_change_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "event" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dispatchedAt" TIMESTAMP(3),

    CONSTRAINT "event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "claim_status_change_claimId_createdAt_idx" ON "claim_status_change"("claimId", "createdAt");

-- CreateIndex
CREATE INDEX "claim_status_change_organizationId_createdAt_idx" ON "claim_status_change"("organizationId", "createdAt");

-- CreateIndex
CREATE INDEX "event_organizationId_createdAt_id_idx" ON "event"("organizationId", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "event_dispatchedAt_createdAt_idx" ON "event"("dispatchedAt", "createdAt");

-- AddForeignKey
ALTER TABLE "claim_status_change" ADD CONSTRAINT "claim_status_change_claimId_fkey" FOREIGN KEY ("claimId") REFERENCES "claim"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "event" ADD CONSTRAINT "event_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
