// Where payments are made. The sandbox (our own hosted checkout with test
// cards) is the default; Paystack is used when PAYSTACK_SECRET_KEY is set.
import crypto from "node:crypto";
import { fromPaystackAmount, toPaystackAmount } from "./paystack-amount";
import { env } from "@/server/env";
import { AppError } from "@/server/errors";
import { paystack } from "@/server/payouts/paystack-transfers";

export interface ProviderInit {
  reference: string;
  amountMinor: bigint;
  currency: string;
  email: string;
  callbackUrl?: string | null;
}

/** A card the provider lets us charge again (Paystack's reusable `authorization`). */
export interface CardAuthorization {
  /** The provider's handle for charging it again: a secret, stored sealed. */
  code: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface ProviderVerification {
  status: "pending" | "success" | "failed";
  /** What the provider charged, in minor units of `currency`. */
  amountMinor?: bigint;
  currency?: string;
  /** The card of a successful charge when the provider says it can be charged again. */
  authorization?: CardAuthorization;
  /** The provider's words on a failed charge (a decline's reason). */
  gatewayResponse?: string;
}

export interface ChargeInit {
  reference: string;
  authorizationCode: string;
  amountMinor: bigint;
  currency: string;
  email: string;
}

export interface PaymentProvider {
  readonly name: "sandbox" | "paystack";
  initialize(p: ProviderInit): Promise<{ authorizationUrl: string }>;
  verify(reference: string): Promise<ProviderVerification>;
  /**
   * Charges a saved card (a renewal). The reference is the charge's own and
   * derived from what it pays for: sent again (after a crash), the provider
   * refuses it as a duplicate and the first charge's outcome is verified.
   */
  chargeAuthorization(c: ChargeInit): Promise<ProviderVerification>;
}

/**
 * The sandbox's cards: 4242… pays and can be charged again; 4000 0000 0000
 * 0341 pays once and declines every later charge (a renewal's decline);
 * 4000 0000 0000 0002 is declined at the checkout.
 */
export const SANDBOX_CARDS = {
  success: "4242424242424242",
  declined: "4000000000000002",
  declinesLater: "4000000000000341",
} as const;

/** The saved-card handle of a sandbox card: which card it is, and a random part. */
export function sandboxAuthorization(cardNumber: string, expMonth: number, expYear: number): CardAuthorization {
  const later = cardNumber === SANDBOX_CARDS.declinesLater;
  return {
    code: `AUTH_sandbox_${later ? "0341" : "4242"}_${crypto.randomBytes(8).toString("hex")}`,
    brand: "visa",
    last4: cardNumber.slice(-4),
    expMonth,
    expYear,
  };
}

export const checkoutUrl = (reference: string) => `${env.APP_URL}/pay/${reference}`;

export const sandboxProvider: PaymentProvider = {
  name: "sandbox",
  async initialize(p) {
    return { authorizationUrl: checkoutUrl(p.reference) };
  },
  // The sandbox settles at checkout; there is nothing remote to ask.
  async verify() {
    return { status: "pending" };
  },
  // Decided by the card, the same every time it is sent (as a duplicate reference is answered by verify).
  async chargeAuthorization(c) {
    if (!c.authorizationCode.startsWith("AUTH_sandbox_"))
      return { status: "failed", gatewayResponse: "This saved card is not the sandbox's" };
    if (c.authorizationCode.startsWith("AUTH_sandbox_0341_"))
      return { status: "failed", gatewayResponse: "insufficient funds (test card 4000 0000 0000 0341)" };
    return { status: "success", amountMinor: c.amountMinor, currency: c.currency };
  },
};

const text = (v: unknown) => (typeof v === "string" ? v.trim() : typeof v === "number" ? String(v) : "");

/** Paystack's `authorization` of a transaction, when it is a card that can be charged again. */
function reusableAuthorization(a: unknown): CardAuthorization | undefined {
  if (!a || typeof a !== "object") return undefined;
  const r = a as Record<string, unknown>;
  const expMonth = Number.parseInt(text(r.exp_month), 10);
  const expYear = Number.parseInt(text(r.exp_year), 10);
  if (r.reusable !== true || typeof r.authorization_code !== "string" || !r.authorization_code) return undefined;
  if (!/^\d{4}$/.test(text(r.last4)) || !(expMonth >= 1 && expMonth <= 12) || !(expYear >= 2000 && expYear <= 2200))
    return undefined;
  return {
    code: r.authorization_code,
    brand: (text(r.brand) || text(r.card_type) || "card").toLowerCase().slice(0, 40),
    last4: text(r.last4),
    expMonth,
    expYear,
  };
}

/** A transaction as Paystack describes it (verify, charge_authorization). */
function verification(data: Record<string, unknown>): ProviderVerification {
  const status =
    data.status === "success"
      ? "success"
      : data.status === "failed" || data.status === "abandoned" || data.status === "reversed"
        ? "failed"
        : "pending";
  const currency = typeof data.currency === "string" ? data.currency.toUpperCase() : undefined;
  // An amount that is no whole number of our minor units is unknown: never equal to a price.
  const amountMinor = fromPaystackAmount(data.amount, currency ?? "NGN") ?? undefined;
  const gatewayResponse = text(data.gateway_response).slice(0, 200) || undefined;
  return {
    status,
    amountMinor,
    currency,
    gatewayResponse,
    authorization: status === "success" ? reusableAuthorization(data.authorization) : undefined,
  };
}

export function paystackProvider(secretKey: string, baseUrl: string): PaymentProvider {
  const call = async (path: string, init?: RequestInit) => {
    let res: Response;
    try {
      res = await fetch(`${baseUrl}${path}`, {
        ...init,
        headers: { Authorization: `Bearer ${secretKey}`, "Content-Type": "application/json" },
        signal: AbortSignal.timeout(15_000),
      });
    } catch (err) {
      throw new AppError(
        "provider_error",
        `The payment provider could not be reached: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    const body = (await res.json().catch(() => null)) as {
      status?: boolean;
      message?: string;
      data?: Record<string, unknown>;
    } | null;
    if (!res.ok || !body?.status) {
      throw new AppError("provider_error", `The payment provider refused the request: ${body?.message ?? res.status}`);
    }
    return body.data ?? {};
  };
  return {
    name: "paystack",
    async initialize(p) {
      const data = await call("/transaction/initialize", {
        method: "POST",
        body: JSON.stringify({
          email: p.email,
          amount: String(toPaystackAmount(p.amountMinor, p.currency)),
          currency: p.currency,
          reference: p.reference,
          ...(p.callbackUrl ? { callback_url: p.callbackUrl } : {}),
        }),
      });
      if (typeof data.authorization_url !== "string")
        throw new AppError("provider_error", "The payment provider gave no checkout URL");
      return { authorizationUrl: data.authorization_url };
    },
    async verify(reference) {
      return verification(await call(`/transaction/verify/${encodeURIComponent(reference)}`));
    },
    async chargeAuthorization(c) {
      // Unreachable, 5xx, 429 or our key refused: thrown (the renewal job's lease brings the charge back). A refusal is an answer.
      const sent = await paystack(secretKey, baseUrl, "/transaction/charge_authorization", {
        email: c.email,
        amount: String(toPaystackAmount(c.amountMinor, c.currency)),
        currency: c.currency,
        authorization_code: c.authorizationCode,
        reference: c.reference,
      });
      if (sent.ok) return verification(sent.data);
      // Refused as a duplicate — sent before (a crash between the charge and our commit): its outcome is the first
      // charge's; or refused for good (an authorization Paystack no longer honours): the charge failed, never made.
      const known = await paystack(secretKey, baseUrl, `/transaction/verify/${encodeURIComponent(c.reference)}`);
      if (known.ok && known.data.reference === c.reference) return verification(known.data);
      return { status: "failed", gatewayResponse: text(sent.message).slice(0, 200) || "refused" };
    },
  };
}

/** Paystack signs its webhooks with hex HMAC-SHA512 of the raw body under the secret key. */
export function verifyPaystackSignature(secretKey: string, rawBody: string, signature: string | null): boolean {
  if (!signature) return false;
  const expected = Buffer.from(crypto.createHmac("sha512", secretKey).update(rawBody).digest("hex"));
  const given = Buffer.from(signature);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}

export type ProviderName = "sandbox" | "paystack";

/**
 * Who takes LIVE payments (and payouts): PAYMENTS_PROVIDER when set; else
 * Paystack when its key is set; else the sandbox on the embedded database
 * (the quick start); else nobody — a production deployment without a real
 * provider does not sell real cover with test cards.
 */
export function liveProviderName(): ProviderName | null {
  if (env.PAYMENTS_PROVIDER) return env.PAYMENTS_PROVIDER;
  if (env.PAYSTACK_SECRET_KEY) return "paystack";
  return env.DATABASE_URL ? null : "sandbox";
}

export const providerNotConfigured = () =>
  new AppError(
    "provider_not_configured",
    "Live payments need a payment provider: set PAYSTACK_SECRET_KEY to take them with Paystack, or PAYMENTS_PROVIDER=sandbox for a demo deployment whose live mode takes the test cards. Test mode (a cd_test_ key, or the dashboard's test mode) always works.",
  );

const named = (name: ProviderName): PaymentProvider =>
  name === "paystack" ? paystackProvider(env.PAYSTACK_SECRET_KEY!, env.PAYSTACK_BASE_URL) : sandboxProvider;

/** Where new payments of a mode are made: test mode always in the sandbox, live mode with the live provider (409 without one). */
export function providerFor(livemode: boolean): PaymentProvider {
  if (!livemode) return sandboxProvider;
  const name = liveProviderName();
  if (!name) throw providerNotConfigured();
  return named(name);
}

/**
 * The provider a payment was initialized with (its `provider` column), for
 * everything done to it afterwards; null when its mode no longer offers it.
 * A payment never moves to another provider. A test payment is always the
 * sandbox's; a live one is the sandbox's only while the sandbox takes live
 * payments: its test cards would otherwise buy real cover for free.
 */
export function providerOf(payment: { provider: string }, livemode: boolean): PaymentProvider | null {
  if (!livemode) return payment.provider === "sandbox" ? sandboxProvider : null;
  const name = liveProviderName();
  return name !== null && payment.provider === name ? named(name) : null;
}
