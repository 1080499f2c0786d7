// The sandbox payout provider: nothing leaves the platform. Its micro-deposit
// is imaginary and its descriptor code is always the same, published to the
// dashboard (bankAccounts.sandboxHint) so a test business can verify.
import { SANDBOX_BANKS, sandboxResolve } from "./banks";
import type { PayoutProvider } from "./provider";
import { sandboxTransfer } from "./sandbox-transfers";

export const SANDBOX_VERIFICATION_CODE = "SM11AA";

export const sandboxPayouts: PayoutProvider = {
  name: "sandbox",
  async startVerification() {
    return { verificationCode: SANDBOX_VERIFICATION_CODE, recipientCode: null };
  },
  transfer: sandboxTransfer,
  banks: async () => [...SANDBOX_BANKS],
  resolveAccount: async (accountNumber, bankCode) => sandboxResolve(accountNumber, bankCode),
  recipientFor: async () => null,
};
