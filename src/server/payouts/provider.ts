// Where money out goes: the payout provider sends the verification
// micro-deposit for a new bank account (and, added beside this file, the
// withdrawals' transfers). The sandbox is the default; Paystack is used when
// PAYSTACK_SECRET_KEY is set, like payments.
import { env } from "@/server/env";
import { liveProviderName, providerNotConfigured, type ProviderName } from "@/server/payments/provider";
import { paystackBanks, paystackResolve, type Bank } from "./banks";
import { paystackClient, startPaystackVerification } from "./paystack-recipient";
import { paystack, paystackTransfer } from "./paystack-transfers";
import { sandboxPayouts } from "./sandbox";

export interface PayoutAccount {
  bankName: string;
  /** The full 10-digit NUBAN; never stored in clear. */
  accountNumber: string;
  accountName: string;
  currency: string;
}

export interface MicroDeposit {
  /** The code the deposit's descriptor carries; the business types it back to verify the account. */
  verificationCode: string;
  /** The provider's id of the account for later transfers (Paystack transfer recipient), null for the sandbox. */
  recipientCode: string | null;
}

/** One withdrawal's transfer. `reference` is the withdrawal's: the provider's idempotency key. */
export interface TransferRequest {
  reference: string;
  amountMinor: bigint;
  currency: string;
  /** The provider's id of the bank account (Paystack transfer recipient), null for the sandbox. */
  recipientCode: string | null;
  bankName: string;
  accountNumberLast4: string;
  /** What the recipient's statement says (default: a Coverdesk withdrawal to the account). */
  reason?: string;
}

/** An account given by bank code and number (a claimant's), for a transfer recipient. */
export interface RecipientAccount {
  bankCode: string;
  accountNumber: string;
  accountName: string;
  currency: string;
}

/** Accepted (settled later: by the payout job or the provider's webhook) or refused for good. Throws when the provider cannot answer now. */
export type TransferResult = { status: "processing"; transferCode: string | null } | { status: "failed"; reason: string };

/**
 * One payout provider. Extend it member by member (withdrawals add
 * `transfer(...)` here, implemented in their own file for each provider) and
 * fill the new member in both objects below.
 */
export interface PayoutProvider {
  readonly name: "sandbox" | "paystack";
  /** "Sends" the small deposit that proves the business owns the account. Throws AppError (provider_error, validation_failed). */
  startVerification(account: PayoutAccount): Promise<MicroDeposit>;
  /** Sends a withdrawal's or a claim payout's money (payouts/job.ts, claim-payouts/job.ts). */
  transfer(t: TransferRequest): Promise<TransferResult>;
  /** The banks money can be sent to, by code (GET /business/payment-methods/banks). */
  banks(currency: string): Promise<Bank[]>;
  /** The account holder's name at the bank; 422 when the bank or the account is unknown. */
  resolveAccount(accountNumber: string, bankCode: string): Promise<string>;
  /** The provider's transfer recipient for an account (Paystack's recipient code), null for the sandbox. Throws when it cannot answer now. */
  recipientFor(account: RecipientAccount): Promise<string | null>;
}

export function paystackPayouts(secretKey: string, baseUrl: string): PayoutProvider {
  const client = paystackClient(secretKey, baseUrl);
  const get = (path: string) => paystack(secretKey, baseUrl, path);
  return {
    name: "paystack",
    startVerification: (account) => startPaystackVerification(client, account),
    transfer: paystackTransfer(secretKey, baseUrl),
    banks: (currency) => paystackBanks(get, currency),
    resolveAccount: (accountNumber, bankCode) => paystackResolve(get, accountNumber, bankCode),
    recipientFor: async (account) => {
      const recipient = (await client("/transferrecipient", {
        method: "POST",
        body: {
          type: "nuban",
          name: account.accountName,
          account_number: account.accountNumber,
          bank_code: account.bankCode,
          currency: account.currency,
        },
      })) as { recipient_code?: unknown } | null;
      if (typeof recipient?.recipient_code !== "string") throw new Error("Paystack gave no transfer recipient");
      return recipient.recipient_code;
    },
  };
}

const named = (name: ProviderName): PayoutProvider =>
  name === "paystack" ? paystackPayouts(env.PAYSTACK_SECRET_KEY!, env.PAYSTACK_BASE_URL) : sandboxPayouts;

/**
 * Where a mode's money goes out: test mode always through the sandbox (code
 * SM11AA, payouts that settle themselves), live mode through the live
 * provider (the same as payments'; 409 provider_not_configured without one).
 */
export function payoutProviderFor(livemode: boolean): PayoutProvider {
  if (!livemode) return sandboxPayouts;
  const name = liveProviderName();
  if (!name) throw providerNotConfigured();
  return named(name);
}

/** The live payout provider (tests and the payout job). */
export const activePayoutProvider = (): PayoutProvider => payoutProviderFor(true);
