-- CreateTable
CREATE TABLE "audit_log" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "actorType" TEXT NOT NULL,
    "actorId" TEXT NOT NULL,
    "actorLabel" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "resourceType" TEXT NOT NULL,
    "resourceId" TEXT,
    "details" JSONB NOT NULL DEFAULT '{}',
    "ipAddress" TEXT,
    "requestId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audit_log_organizationId_createdAt_id_idx" ON "audit_log"("organizationId", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "audit_log_organizationId_action_createdAt_id_idx" ON "audit_log"("organizationId", "action", "createdAt" DESC, "id");

-- CreateIndex
CREATE INDEX "audit_log_organizationId_resourceType_resourceId_idx" ON "audit_log"("organizationId", "resourceType", "resourceId");

-- AddForeignKey
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Append-only: an entry is never changed or removed, except by prune_audit_log (retention) and
-- by its organization's own erasure (the cascade, once the organization row is gone).
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND (
    current_setting('coverdesk.audit_prune', true) = 'on'
    OR NOT EXISTS (SELECT 1 FROM organization WHERE id = OLD."organizationId")
  ) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;

CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();

CREATE FUNCTION audit_log_no_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: TRUNCATE refused' USING ERRCODE = 'insufficient_privilege';
END $$;

CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON "audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_no_truncate();

-- Retention: the only way old entries go. Returns how many went.
CREATE FUNCTION prune_audit_log(older_than timestamp) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE gone bigint;
BEGIN
  PERFORM set_config('coverdesk.audit_prune', 'on', true);
  DELETE FROM "audit_log" WHERE "createdAt" < older_than;
  GET DIAGNOSTICS gone = ROW_COUNT;
  PERFORM set_config('coverdesk.audit_prune', 'off', true);
  RETURN gone;
END $$;
