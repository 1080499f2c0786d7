// POST /api/webhooks/paystack — Paystack's signed notification of a charge.
import { env } from "@/server/env";
import { logger } from "@/server/logger";
import { verifyPaystackSignature } from "@/server/payments/provider";
import { settleReference } from "@/server/payments/remote";

export const dynamic = "force-dynamic";

export async function POST(request: Request) {
  if (!env.PAYSTACK_SECRET_KEY) return new Response(null, { status: 404 });
  const raw = await request.text();
  if (!verifyPaystackSignature(env.PAYSTACK_SECRET_KEY, raw, request.headers.get("x-paystack-signature"))) {
    return new Response(null, { status: 401 });
  }
  let event: { event?: string; data?: { reference?: string } };
  try {
    event = JSON.parse(raw);
  } catch {
    return new Response(null, { status: 400 });
  }
  if ((event.event === "charge.success" || event.event === "charge.failed") && event.data?.reference) {
    // The payload is only a hint: the outcome is confirmed with Paystack's verify API.
    await settleReference(event.data.reference).catch((err) => logger.error({ err }, "paystack webhook settle failed"));
  }
  return new Response(null, { status: 200 });
}
