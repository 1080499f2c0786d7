-- The renewals summary (the recurring book, the covers due in 7 days) reads the
-- auto-renewing covers only: at 576 000 coverages without it, the book was a
-- sequential scan (~230 ms) and the week's due covers an index scan of every
-- end in the week (~47 ms).
-- CreateIndex
CREATE INDEX "coverage_organizationId_autoRenew_endsAt_idx" ON "coverage"("organizationId", "autoRenew", "endsAt");
