-- AlterTable
ALTER TABLE "claim" ADD COLUMN     "payoutAccountAt" TIMESTAMP(3),
ADD COLUMN     "payoutAccountLast4" TEXT,
ADD COLUMN     "payoutAccountName" TEXT,
ADD COLUMN     "payoutAccountSealed" TEXT,
ADD COLUMN     "payoutBankCode" TEXT,
ADD COLUMN     "payoutBankName" TEXT;
