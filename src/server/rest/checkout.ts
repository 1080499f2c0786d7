// The checkout's own small endpoint: no API key (the reference is the
// capability), the same problem+json errors as the REST API.
import { env } from "@/server/env";
import { AppError, toAppError } from "@/server/errors";
import { assertDeclaredLength, readJson } from "@/server/http/body";
import { logger } from "@/server/logger";
import { requestIdOf } from "@/server/request-id";
import { payWithCard, retryPayment } from "@/server/payments/checkout";
import { CheckoutInput } from "@/lib/schemas/payments";
import { assertSafeInput } from "@/server/text";
import { fieldErrors, problemResponse } from "./problem";

function start(request: Request) {
  const requestId = requestIdOf(request.headers);
  return { requestId, headers: new Headers({ "X-Request-Id": requestId, "Cache-Control": "no-store" }) };
}

function json(body: unknown, headers: Headers) {
  headers.set("Content-Type", "application/json; charset=utf-8");
  return new Response(JSON.stringify(body), { status: 200, headers });
}

function failure(err: unknown, requestId: string, headers: Headers, reference: string) {
  const app = toAppError(err);
  if (app) return problemResponse(app, requestId, headers);
  logger.error({ err, requestId, reference }, "checkout failed");
  return problemResponse(new AppError("internal_error", `Something went wrong. Quote ${requestId}.`), requestId, headers);
}

export async function handleCheckout(request: Request, reference: string): Promise<Response> {
  const { requestId, headers } = start(request);
  try {
    // The REST API's body rules: 413 over API_MAX_BODY_BYTES, 415 unless JSON, 400 malformed.
    const { value } = await readJson(request, env.API_MAX_BODY_BYTES);
    assertSafeInput(reference, "reference");
    assertSafeInput(value);
    const parsed = CheckoutInput.safeParse(value);
    if (!parsed.success) {
      const errors = fieldErrors(parsed.error);
      throw new AppError("validation_failed", errors.map((e) => `${e.path}: ${e.message}`).join("; "), { errors });
    }
    return json(await payWithCard(reference, parsed.data), headers);
  } catch (err) {
    return failure(err, requestId, headers, reference);
  }
}

export async function handleCheckoutRetry(request: Request, reference: string): Promise<Response> {
  const { requestId, headers } = start(request);
  try {
    // No body is read here; an announced oversized one is still refused, as on the REST API.
    assertDeclaredLength(request, env.API_MAX_BODY_BYTES);
    return json(await retryPayment(reference), headers);
  } catch (err) {
    return failure(err, requestId, headers, reference);
  }
}
