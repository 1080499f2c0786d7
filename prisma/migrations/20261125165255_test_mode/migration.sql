-- AlterTable
ALTER TABLE "api_key" ADD COLUMN     "mode" TEXT NOT NULL DEFAULT 'live';

-- AlterTable
ALTER TABLE "organization" ADD COLUMN     "liveOrganizationId" TEXT,
ADD COLUMN     "livemode" BOOLEAN NOT NULL DEFAULT true;

-- AlterTable
ALTER TABLE "user" ADD COLUMN     "testMode" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE UNIQUE INDEX "organization_liveOrganizationId_key" ON "organization"("liveOrganizationId");

-- AddForeignKey
ALTER TABLE "organization" ADD CONSTRAINT "organization_liveOrganizationId_fkey" FOREIGN KEY ("liveOrganizationId") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every existing organization gets its test twin (same profile, settings at their defaults).
INSERT INTO "organization" ("id", "livemode", "liveOrganizationId", "name", "email", "phone", "address", "currency", "createdAt", "updatedAt")
SELECT gen_random_uuid()::text, false, o."id", o."name", o."email", o."phone", o."address", o."currency", o."createdAt", now()
FROM "organization" o
WHERE o."livemode" = true AND NOT EXISTS (SELECT 1 FROM "organization" t WHERE t."liveOrganizationId" = o."id");
