-- CreateIndex
CREATE INDEX "event_organizationId_type_createdAt_id_idx" ON "event"("organizationId", "type", "createdAt" DESC, "id");
