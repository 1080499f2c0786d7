// Withdrawals on Paystack: POST /transfer from the Paystack balance to the
// account's transfer recipient, then Paystack's signed webhook
// (transfer.success / transfer.failed / transfer.reversed) settles it.
//
// The transfer's reference is the withdrawal's own reference, and Paystack
// refuses a second transfer with a reference it has seen. So a worker that
// crashed after Paystack accepted the transfer but before our row said so
// sends the same reference again, is refused, and learns from
// GET /transfer/verify/:reference what became of the first one: one
// withdrawal is never paid twice.
import { AppError } from "@/server/errors";
import { toPaystackAmount } from "@/server/payments/paystack-amount";
import type { TransferRequest, TransferResult } from "./provider";

export interface Answer {
  ok: boolean;
  message: string;
  data: Record<string, unknown>;
}

/** One call. Unreachable, 5xx or 429 throws provider_error (the job tries again later); a refusal is an answer. */
export async function paystack(secretKey: string, baseUrl: string, path: string, body?: unknown): Promise<Answer> {
  let res: Response;
  try {
    res = await fetch(`${baseUrl}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { Authorization: `Bearer ${secretKey}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (err) {
    throw new AppError("provider_error", `Paystack could not be reached: ${err instanceof Error ? err.message : String(err)}`);
  }
  const json = (await res.json().catch(() => null)) as { status?: boolean; message?: string; data?: unknown } | null;
  if (res.status >= 500 || res.status === 429 || res.status === 401 || !json) {
    throw new AppError("provider_error", `Paystack answered ${res.status}: ${json?.message ?? "no JSON body"}`);
  }
  const data = json.data && typeof json.data === "object" ? (json.data as Record<string, unknown>) : {};
  return { ok: res.ok && json.status === true, message: json.message ?? `HTTP ${res.status}`, data };
}

/** What a transfer's Paystack status means for the withdrawal. */
function resultOf(data: Record<string, unknown>): TransferResult {
  const status = String(data.status ?? "");
  if (["failed", "reversed", "rejected", "abandoned"].includes(status)) {
    return { status: "failed", reason: `Paystack reported the transfer as ${status}` };
  }
  if (status === "otp") {
    return {
      status: "failed",
      reason: "Paystack asks for an OTP to finalize transfers; turn off transfer OTP in the Paystack dashboard",
    };
  }
  return { status: "processing", transferCode: typeof data.transfer_code === "string" ? data.transfer_code : null };
}

export function paystackTransfer(secretKey: string, baseUrl: string) {
  return async (t: TransferRequest): Promise<TransferResult> => {
    if (!t.recipientCode) {
      return { status: "failed", reason: "This bank account has no Paystack transfer recipient; add the account again" };
    }
    const sent = await paystack(secretKey, baseUrl, "/transfer", {
      source: "balance",
      amount: toPaystackAmount(t.amountMinor, t.currency),
      currency: t.currency,
      recipient: t.recipientCode,
      reference: t.reference,
      reason: t.reason ?? `Coverdesk withdrawal to ${t.bankName} ••••${t.accountNumberLast4}`,
    });
    if (sent.ok) return resultOf(sent.data);
    // Refused — perhaps as a duplicate of a transfer an earlier attempt made (see the top).
    const known = await paystack(secretKey, baseUrl, `/transfer/verify/${encodeURIComponent(t.reference)}`);
    if (known.ok && known.data.reference === t.reference) return resultOf(known.data);
    return { status: "failed", reason: `Paystack refused the transfer: ${sent.message}` };
  };
}
