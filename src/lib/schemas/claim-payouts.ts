import { z } from "@/lib/messages";
import { AmountNumber } from "@/lib/money";

export const CLAIM_PAYOUT_STATUSES = ["pending", "processing", "paid", "failed"] as const;
export type ClaimPayoutStatus = (typeof CLAIM_PAYOUT_STATUSES)[number];

export const AccountNumber = z
  .string()
  .trim()
  .regex(/^\d{10}$/, "Enter the 10-digit account number (NUBAN)")
  .meta({ examples: ["0123456789"] })
  .describe('The claimant\'s 10-digit account number (NUBAN), e.g. "0123456789"; only its last 4 digits are ever shown');
export const BankCode = z
  .string()
  .trim()
  .min(1, "Choose the bank")
  .max(20)
  .regex(/^[0-9A-Za-z]+$/, "Choose the bank from the list")
  .meta({ examples: ["058"] })
  .describe('The bank\'s code from GET /business/payment-methods/banks, e.g. "058"');

export const PayClaimInput = z
  .strictObject({
    accountNumber: AccountNumber.optional().describe(
      "The claimant's 10-digit account number (NUBAN); with bankCode. Leave both out to pay the account the policyholder gave in the portal",
    ),
    bankCode: BankCode.optional().describe(
      'The bank\'s code from GET /business/payment-methods/banks, e.g. "058"; with accountNumber',
    ),
    amount: AmountNumber.optional().describe("At most the approved amount (the default), e.g. 40000"),
  })
  .superRefine((input, ctx) => {
    // Both or neither: an account is a bank and a number.
    if (input.accountNumber === undefined && input.bankCode !== undefined)
      ctx.addIssue({ code: "custom", path: ["accountNumber"], message: "Enter the 10-digit account number (NUBAN)" });
    if (input.bankCode === undefined && input.accountNumber !== undefined)
      ctx.addIssue({ code: "custom", path: ["bankCode"], message: "Choose the bank" });
  })
  .meta({ id: "PayClaimInput" });
export type PayClaimInput = z.output<typeof PayClaimInput>;

export const ClaimPayout = z
  .object({
    id: z.string(),
    claimId: z.string(),
    amount: z.string().describe('Decimal string, e.g. "40000.00"'),
    currency: z.string(),
    status: z.enum(CLAIM_PAYOUT_STATUSES),
    bankName: z.string(),
    accountName: z.string().describe("The account holder's name as the bank gives it"),
    accountNumberLast4: z.string(),
    failureReason: z.string().nullable(),
    createdAt: z.iso.datetime(),
    paidAt: z.iso.datetime().nullable(),
  })
  .meta({ id: "ClaimPayout" });
export type ClaimPayout = z.output<typeof ClaimPayout>;

export const ClaimPayoutList = z.object({ data: z.array(ClaimPayout) }).meta({ id: "ClaimPayoutList" });
export type ClaimPayoutList = z.output<typeof ClaimPayoutList>;

export const Bank = z.object({ code: z.string(), name: z.string() }).meta({ id: "Bank" });
export const BankList = z.object({ data: z.array(Bank) }).meta({ id: "BankList" });
export type BankList = z.output<typeof BankList>;

export const ResolveAccountQuery = z.strictObject({ accountNumber: AccountNumber, bankCode: BankCode });
export type ResolveAccountQuery = z.output<typeof ResolveAccountQuery>;

export const ResolvedAccount = z
  .object({ accountNumber: z.string(), bankCode: z.string(), accountName: z.string() })
  .meta({ id: "ResolvedAccount" });
export type ResolvedAccount = z.output<typeof ResolvedAccount>;

/** The account a policyholder asks to be paid to, for one of their approved claims (portal). */
export const ClaimantAccountInput = z
  .strictObject({ bankCode: BankCode, accountNumber: AccountNumber })
  .meta({ id: "ClaimantAccountInput" });
export type ClaimantAccountInput = z.output<typeof ClaimantAccountInput>;

/** The account a policyholder gave for a claim: never its full number. */
export const ClaimantAccount = z
  .object({
    bankCode: z.string(),
    bankName: z.string(),
    accountName: z.string().describe("The account holder's name as the bank gives it"),
    accountNumberLast4: z.string(),
    givenAt: z.iso.datetime(),
  })
  .meta({ id: "ClaimantAccount" });
export type ClaimantAccount = z.output<typeof ClaimantAccount>;
