-- AlterTable
ALTER TABLE "webhook" ADD COLUMN     "failingSince" TIMESTAMP(3);
