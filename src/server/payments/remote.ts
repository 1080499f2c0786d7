// Payments made on a remote provider's page: we learn the outcome from its
// verify API or its signed webhook, and settle exactly as the sandbox does.
import type { Payment as PaymentRow } from "@/generated/prisma/client";
import { db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { logger } from "@/server/logger";
import { activeProvider } from "./provider";
import { settlePayment } from "./settle";

export async function settleFromProvider(row: PaymentRow): Promise<PaymentRow> {
  const result = await activeProvider().verify(row.reference);
  if (result.status === "pending") return row;
  if (result.status === "success" && result.amountMinor !== undefined && result.amountMinor !== row.amountMinor) {
    // Never credit an amount other than the one asked for.
    logger.error(
      { reference: row.reference, expected: String(row.amountMinor), got: String(result.amountMinor) },
      "provider amount differs",
    );
    return row;
  }
  try {
    return (await settlePayment(row.reference, result.status)).payment;
  } catch (err) {
    if (err instanceof AppError && err.code === "payment_not_pending") {
      return db.payment.findUniqueOrThrow({ where: { id: row.id } });
    }
    throw err;
  }
}

/** A provider webhook told us a reference's outcome: confirm it with the provider, then settle. */
export async function settleReference(reference: string): Promise<void> {
  const row = await db.payment.findUnique({ where: { reference } });
  if (!row || row.status !== "pending") return;
  await settleFromProvider(row);
}
