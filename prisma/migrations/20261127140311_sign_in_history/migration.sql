-- CreateTable
CREATE TABLE "sign_in_event" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "success" BOOLEAN NOT NULL,
    "reason" TEXT,
    "ipAddress" TEXT,
    "userAgent" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sign_in_event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "sign_in_event_userId_createdAt_id_idx" ON "sign_in_event"("userId", "createdAt" DESC, "id");

-- AddForeignKey
ALTER TABLE "sign_in_event" ADD CONSTRAINT "sign_in_event_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;
