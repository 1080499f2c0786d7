-- AlterTable
ALTER TABLE "organization" ADD COLUMN     "sampleDataCompletedAt" TIMESTAMP(3),
ADD COLUMN     "sampleDataStep" INTEGER NOT NULL DEFAULT 0;

-- A load claimed before this migration either completed or died part-way, and
-- which one cannot be told (nor how far a dead one got, so its renewal cycles
-- could not be resumed without charging some twice): as before, it counts as
-- done and later loads add nothing.
UPDATE "organization" SET "sampleDataCompletedAt" = "sampleDataLoadedAt" WHERE "sampleDataLoadedAt" IS NOT NULL;
