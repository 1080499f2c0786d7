// A bank account on Paystack: its bank code (from Paystack's bank list), a
// NUBAN transfer recipient, and a 1.00 verification transfer whose reason
// carries the code the business reads on its statement.
import crypto from "node:crypto";
import { AppError } from "@/server/errors";
import type { MicroDeposit, PayoutAccount } from "./provider";

interface PaystackAnswer {
  status?: boolean;
  message?: string;
  data?: unknown;
}

/** Calls Paystack's REST API; any refusal or outage is a provider_error (502). Reused for transfers. */
export type PaystackCall = (path: string, init?: { method?: string; body?: unknown }) => Promise<unknown>;

export function paystackClient(secretKey: string, baseUrl: string): PaystackCall {
  return async (path, init = {}) => {
    let res: Response;
    try {
      res = await fetch(`${baseUrl}${path}`, {
        method: init.method ?? "GET",
        headers: { Authorization: `Bearer ${secretKey}`, "Content-Type": "application/json" },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: AbortSignal.timeout(15_000),
      });
    } catch (err) {
      throw new AppError(
        "provider_error",
        `The payout provider could not be reached: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    const body = (await res.json().catch(() => null)) as PaystackAnswer | null;
    if (!res.ok || !body?.status) {
      throw new AppError("provider_error", `The payout provider refused the request: ${body?.message ?? res.status}`);
    }
    return body.data;
  };
}

const CODE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
/** Six characters from [A-Z0-9], uniformly random. */
export const newVerificationCode = () =>
  Array.from({ length: 6 }, () => CODE_ALPHABET[crypto.randomInt(CODE_ALPHABET.length)]).join("");

const object = (v: unknown): Record<string, unknown> => (v && typeof v === "object" ? (v as Record<string, unknown>) : {});

async function bankCodeOf(call: PaystackCall, bankName: string, currency: string): Promise<string> {
  const banks = await call(`/bank?currency=${encodeURIComponent(currency)}`);
  const wanted = bankName.trim().toLowerCase();
  const bank = (Array.isArray(banks) ? banks : []).map(object).find((b) => String(b.name ?? "").toLowerCase() === wanted);
  if (!bank || typeof bank.code !== "string") {
    throw new AppError("validation_failed", `bankName: ${bankName} is not a bank the payout provider knows`, {
      errors: [
        { path: "bankName", message: "Enter the bank's name as Paystack lists it: this one is not known to the payout provider" },
      ],
    });
  }
  return bank.code;
}

export async function startPaystackVerification(call: PaystackCall, account: PayoutAccount): Promise<MicroDeposit> {
  const bankCode = await bankCodeOf(call, account.bankName, account.currency);
  const recipient = object(
    await call("/transferrecipient", {
      method: "POST",
      body: {
        type: "nuban",
        name: account.accountName,
        account_number: account.accountNumber,
        bank_code: bankCode,
        currency: account.currency,
      },
    }),
  );
  if (typeof recipient.recipient_code !== "string") {
    throw new AppError("provider_error", "The payout provider gave no transfer recipient");
  }
  const verificationCode = newVerificationCode();
  await call("/transfer", {
    method: "POST",
    body: {
      source: "balance",
      amount: 100,
      recipient: recipient.recipient_code,
      reason: `Coverdesk verification ${verificationCode}`,
      // Paystack's idempotency key for the transfer: lowercase, 16–50 characters.
      reference: `cdv_${crypto.randomBytes(12).toString("hex")}`,
    },
  });
  return { verificationCode, recipientCode: recipient.recipient_code };
}
