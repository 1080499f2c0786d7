// POST /api/webhooks/paystack — Paystack's signed notification of a charge, of a transfer (a withdrawal or a claim payout), or of a refund.
import { env } from "@/server/env";
import { AppError } from "@/server/errors";
import { readText } from "@/server/http/body";
import { logger } from "@/server/logger";
import { verifyPaystackSignature } from "@/server/payments/provider";
import { settleReference } from "@/server/payments/remote";
import { isTransferEvent, settleTransferEvent } from "@/server/payouts/paystack-transfer-events";
import { isRefundEvent, settleRefundEvent } from "@/server/refunds/paystack-events";
import { counted } from "@/server/operations/busy";

export const dynamic = "force-dynamic";

export const POST = counted(async (request: Request) => {
  if (!env.PAYSTACK_SECRET_KEY) return new Response(null, { status: 404 });
  // Paystack's events are a few KiB: never hold more than the API's body limit before the signature is checked.
  let raw: string;
  try {
    raw = await readText(request, env.API_MAX_BODY_BYTES);
  } catch (err) {
    if (err instanceof AppError) return new Response(null, { status: err.status });
    throw err;
  }
  if (!verifyPaystackSignature(env.PAYSTACK_SECRET_KEY, raw, request.headers.get("x-paystack-signature"))) {
    return new Response(null, { status: 401 });
  }
  let event: { event?: string; data?: { reference?: string } & Record<string, unknown> };
  try {
    event = JSON.parse(raw);
  } catch {
    return new Response(null, { status: 400 });
  }
  if ((event.event === "charge.success" || event.event === "charge.failed") && event.data?.reference) {
    // The payload is only a hint: the outcome is confirmed with Paystack's verify API.
    // 200 only once settled (or nothing to do); a failure answers 5xx so that Paystack delivers again.
    try {
      await settleReference(event.data.reference);
    } catch (err) {
      logger.error({ err, reference: event.data.reference }, "paystack webhook settle failed");
      return new Response(null, { status: 500 });
    }
  }
  if (isTransferEvent(event.event)) {
    // Signed by Paystack: the transfer's outcome settles the withdrawal (already settled or unknown: nothing to do).
    try {
      await settleTransferEvent(event.event, event.data);
    } catch (err) {
      logger.error({ err, reference: event.data?.reference }, "paystack transfer webhook settle failed");
      return new Response(null, { status: 500 });
    }
  }
  if (isRefundEvent(event.event)) {
    try {
      await settleRefundEvent(event.event, event.data);
    } catch (err) {
      logger.error({ err }, "paystack refund webhook settle failed");
      return new Response(null, { status: 500 });
    }
  }
  return new Response(null, { status: 200 });
});
