-- A key never does more than its creator may do now. Removing a member now
-- revokes their keys; keys of creators who left before that are revoked here,
-- so the dashboard and GET /business/api-keys show them as they behave.
UPDATE "api_key" AS k
SET "status" = 'revoked', "revokedAt" = CURRENT_TIMESTAMP, "updatedAt" = CURRENT_TIMESTAMP
WHERE k."status" = 'active'
  AND NOT EXISTS (
    SELECT 1 FROM "member" AS m WHERE m."organizationId" = k."organizationId" AND m."userId" = k."createdById"
  );
