-- AlterTable
ALTER TABLE "payment" ADD COLUMN     "failureReason" TEXT;
