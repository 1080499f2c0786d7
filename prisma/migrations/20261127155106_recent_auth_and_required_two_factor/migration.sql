-- AlterTable
ALTER TABLE "organization" ADD COLUMN     "requireTwoFactor" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "session" ADD COLUMN     "reauthenticatedAt" TIMESTAMP(3);
