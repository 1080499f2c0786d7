-- AlterTable
ALTER TABLE "api_key" ADD COLUMN     "regeneratedAt" TIMESTAMP(3);
