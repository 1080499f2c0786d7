// Banks and account names, for money sent to an account given by bank code and
// number (claim payouts): the provider's bank list, and the name the bank
// holds for an account (so the business sees whom it pays before it pays).
// The sandbox ships Nigeria's main banks with their NIBSS codes (as Paystack
// lists them) and answers a deterministic name; Paystack through
// GET /bank and GET /bank/resolve.
import crypto from "node:crypto";
import { AppError, validationError } from "@/server/errors";
import type { Answer } from "./paystack-transfers";

/** A Paystack GET: an outage throws provider_error, a refusal is an answer (paystack-transfers.ts). */
export type PaystackGet = (path: string) => Promise<Answer>;

export interface Bank {
  code: string;
  name: string;
}

export const SANDBOX_BANKS: readonly Bank[] = [
  { code: "044", name: "Access Bank" },
  { code: "023", name: "Citibank Nigeria" },
  { code: "050", name: "Ecobank Nigeria" },
  { code: "070", name: "Fidelity Bank" },
  { code: "011", name: "First Bank of Nigeria" },
  { code: "214", name: "First City Monument Bank" },
  { code: "00103", name: "Globus Bank" },
  { code: "058", name: "Guaranty Trust Bank" },
  { code: "082", name: "Keystone Bank" },
  { code: "50211", name: "Kuda Bank" },
  { code: "50515", name: "Moniepoint MFB" },
  { code: "999992", name: "OPay Digital Services Limited (OPay)" },
  { code: "999991", name: "PalmPay" },
  { code: "076", name: "Polaris Bank" },
  { code: "101", name: "Providus Bank" },
  { code: "221", name: "Stanbic IBTC Bank" },
  { code: "068", name: "Standard Chartered Bank" },
  { code: "232", name: "Sterling Bank" },
  { code: "032", name: "Union Bank of Nigeria" },
  { code: "033", name: "United Bank For Africa" },
  { code: "215", name: "Unity Bank" },
  { code: "035", name: "Wema Bank" },
  { code: "057", name: "Zenith Bank" },
];

const SANDBOX_NAMES = [
  "ADAEZE OKAFOR",
  "CHINEDU EZE",
  "FUNMILAYO ADEYEMI",
  "IBRAHIM MUSA",
  "NGOZI NWOSU",
  "OLUWASEUN BALOGUN",
  "TUNDE BAKARE",
  "ZAINAB BELLO",
];

/** In the sandbox, an account number ending in 0000 is not known at its bank (to try the refusal). */
export const SANDBOX_UNKNOWN_SUFFIX = "0000";

export const unknownBank = () =>
  validationError([{ path: "bankCode", message: "Choose a bank from the list: this bank code is not known" }]);
export const unknownAccount = () =>
  validationError([{ path: "accountNumber", message: "No account with this number at this bank: check both" }]);

export function sandboxBankName(code: string): string | null {
  return SANDBOX_BANKS.find((b) => b.code === code)?.name ?? null;
}

/** The sandbox's account holder: the same name for the same bank and number, every time. */
export function sandboxResolve(accountNumber: string, bankCode: string): string {
  if (!sandboxBankName(bankCode)) throw unknownBank();
  if (accountNumber.endsWith(SANDBOX_UNKNOWN_SUFFIX)) throw unknownAccount();
  const n = crypto.createHash("sha256").update(`${bankCode}:${accountNumber}`).digest().readUInt32BE(0);
  return SANDBOX_NAMES[n % SANDBOX_NAMES.length]!;
}

const object = (v: unknown): Record<string, unknown> => (v && typeof v === "object" ? (v as Record<string, unknown>) : {});

/** Paystack's bank list, kept an hour per currency (it changes rarely; every payout form reads it). */
const bankCache = new Map<string, { at: number; banks: Bank[] }>();
const BANK_CACHE_MS = 60 * 60_000;

export async function paystackBanks(get: PaystackGet, currency: string): Promise<Bank[]> {
  const cached = bankCache.get(currency);
  if (cached && Date.now() - cached.at < BANK_CACHE_MS) return cached.banks;
  const answer = await get(`/bank?currency=${encodeURIComponent(currency)}&perPage=200`);
  if (!answer.ok) throw new AppError("provider_error", `Paystack refused the bank list: ${answer.message}`);
  const list: unknown = answer.data;
  const banks = (Array.isArray(list) ? list : [])
    .map(object)
    .filter((b) => b.active !== false && typeof b.code === "string" && typeof b.name === "string")
    .map((b) => ({ code: b.code as string, name: b.name as string }));
  bankCache.set(currency, { at: Date.now(), banks });
  return banks;
}

/** The name at the bank; Paystack refusing to resolve it is our 422 on the account number. */
export async function paystackResolve(get: PaystackGet, accountNumber: string, bankCode: string): Promise<string> {
  const answer = await get(
    `/bank/resolve?account_number=${encodeURIComponent(accountNumber)}&bank_code=${encodeURIComponent(bankCode)}`,
  );
  const name = answer.data.account_name;
  if (!answer.ok || typeof name !== "string" || !name) throw unknownAccount();
  return name;
}
