-- AlterTable
ALTER TABLE "payment" ADD COLUMN     "customerPhone" TEXT,
ADD COLUMN     "paymentLinkId" TEXT;

-- CreateTable
CREATE TABLE "payment_link" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "policyId" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "collectPhone" BOOLEAN NOT NULL DEFAULT false,
    "redirectUrl" TEXT,
    "views" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "payment_link_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "payment_link_slug_key" ON "payment_link"("slug");

-- CreateIndex
CREATE INDEX "payment_link_organizationId_createdAt_id_idx" ON "payment_link"("organizationId", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "payment_link_organizationId_policyId_createdAt_id_idx" ON "payment_link"("organizationId", "policyId", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "payment_paymentLinkId_createdAt_id_idx" ON "payment"("paymentLinkId", "createdAt" DESC, "id");

-- AddForeignKey
ALTER TABLE "payment" ADD CONSTRAINT "payment_paymentLinkId_fkey" FOREIGN KEY ("paymentLinkId") REFERENCES "payment_link"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_link" ADD CONSTRAINT "payment_link_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_link" ADD CONSTRAINT "payment_link_policyId_fkey" FOREIGN KEY ("policyId") REFERENCES "policy"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
