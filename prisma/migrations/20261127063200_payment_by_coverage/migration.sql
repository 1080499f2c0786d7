-- CreateIndex
CREATE INDEX "payment_coverageId_paidAt_idx" ON "payment"("coverageId", "paidAt" DESC);
