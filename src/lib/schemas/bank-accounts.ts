import { z } from "@/lib/messages";
import { pageOf } from "@/lib/schemas/pagination";

const Text = (max: number) => z.string().trim().min(1).max(max);

export const AddBankAccountInput = z
  .strictObject({
    bankName: Text(100).describe('The bank\'s name, e.g. "Access Bank"'),
    accountNumber: z
      .string()
      .regex(/^\d{10}$/, "Enter the 10-digit account number (NUBAN)")
      .describe('The 10-digit NUBAN, e.g. "0123456789". Only its last 4 digits are ever shown again.'),
    accountName: Text(150).describe('The name on the account, e.g. "Ada Stores Ltd"'),
  })
  .meta({ id: "AddBankAccountInput" });
export type AddBankAccountInput = z.output<typeof AddBankAccountInput>;

export const VerifyBankAccountInput = z
  .strictObject({
    verificationCode: z
      .string()
      .trim()
      .min(1)
      .max(32)
      .describe("The code on the micro-deposit's descriptor (the sandbox's is always SM11AA)"),
  })
  .meta({ id: "VerifyBankAccountInput" });
export type VerifyBankAccountInput = z.output<typeof VerifyBankAccountInput>;

export const BANK_ACCOUNT_STATUSES = ["pending_verification", "verified", "verification_failed"] as const;

export const BankAccount = z
  .object({
    id: z.string(),
    bankName: z.string(),
    accountName: z.string(),
    accountNumberLast4: z.string(),
    status: z.enum(BANK_ACCOUNT_STATUSES),
    isDefault: z.boolean().describe("Withdrawals go here unless another account is named"),
    createdAt: z.iso.datetime(),
    verifiedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: "BankAccount" });
export type BankAccount = z.infer<typeof BankAccount>;

export const BankAccountList = pageOf(BankAccount, "BankAccountList");

export const SandboxHint = z.object({
  code: z.string().nullable().describe("The sandbox's micro-deposit code; null unless the sandbox payout provider is active"),
});
export type SandboxHint = z.infer<typeof SandboxHint>;
