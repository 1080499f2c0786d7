// Payments made on a remote provider's page: we learn the outcome from its
// verify API or its signed webhook, and settle exactly as the sandbox does.
import type { Payment as PaymentRow } from "@/generated/prisma/client";
import { db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { formatMinor } from "@/lib/money";
import { logger } from "@/server/logger";
import { providerOf, type ProviderVerification } from "./provider";
import { settlePayment } from "./settle";

/**
 * Asks the payment's own provider how it stands and settles it. A success is
 * credited only for exactly the amount and currency asked for; any other charge
 * fails the payment (nothing credited, no cover) and is logged for review.
 */
export async function settleFromProvider(row: PaymentRow): Promise<PaymentRow> {
  // Only live payments are made on a remote provider (test mode is always the sandbox's).
  const provider = providerOf(row, true);
  if (!provider) {
    logger.warn({ reference: row.reference, provider: row.provider }, "payment provider not configured; left as is");
    return row;
  }
  const result = await provider.verify(row.reference);
  if (result.status === "pending") return row;
  const { outcome, failureReason } = judgeCharge(row, { ...result, status: result.status }, provider.name);
  try {
    return (await settlePayment(row.reference, outcome, { failureReason, card: result.authorization })).payment;
  } catch (err) {
    if (err instanceof AppError && err.code === "payment_not_pending") {
      return db.payment.findUniqueOrThrow({ where: { id: row.id } });
    }
    throw err;
  }
}

const providerWord = (name: string) => (name === "paystack" ? "Paystack" : name === "sandbox" ? "The sandbox" : name);

/**
 * What a provider's answer on a charge means for the payment: a success only
 * for exactly the amount and currency asked for — any other charge fails the
 * payment (nothing credited, no cover) and is logged for review.
 */
export function judgeCharge(
  row: { reference: string; amountMinor: bigint; currency: string },
  result: ProviderVerification & { status: "success" | "failed" },
  providerName: string,
): { outcome: "success" | "failed"; failureReason?: string } {
  const who = providerWord(providerName);
  if (result.status === "failed")
    return {
      outcome: "failed",
      failureReason: result.gatewayResponse
        ? `${who} declined the charge: ${result.gatewayResponse}`
        : `${who} reported the charge as failed`,
    };
  if (result.amountMinor === row.amountMinor && result.currency === row.currency) return { outcome: "success" };
  const charged =
    result.amountMinor === undefined || !result.currency
      ? "an unreported amount"
      : `${formatMinor(result.amountMinor, result.currency)} ${result.currency}`;
  logger.error(
    {
      reference: row.reference,
      reason: "charged amount or currency differs from the payment's",
      expected: { amountMinor: String(row.amountMinor), currency: row.currency },
      got: { amountMinor: String(result.amountMinor), currency: result.currency },
    },
    "payment failed: the provider charged another amount",
  );
  return {
    outcome: "failed",
    failureReason: `${who} charged ${charged} instead of ${formatMinor(row.amountMinor, row.currency)} ${row.currency}: not credited`,
  };
}

/** A provider webhook told us a reference's outcome: confirm it with the provider, then settle. */
export async function settleReference(reference: string): Promise<void> {
  const row = await db.payment.findUnique({ where: { reference } });
  if (!row || row.status !== "pending") return;
  await settleFromProvider(row);
}
