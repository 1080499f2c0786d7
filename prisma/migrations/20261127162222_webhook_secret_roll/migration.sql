-- AlterTable
ALTER TABLE "webhook" ADD COLUMN     "previousSecretExpiresAt" TIMESTAMP(3),
ADD COLUMN     "previousSecretSealed" TEXT;
