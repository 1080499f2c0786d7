-- AlterTable
ALTER TABLE "organization" ADD COLUMN     "sampleDataLoadedAt" TIMESTAMP(3);
