"use client";

import { CheckCircle2, XCircle } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Field, Input, FormError } from "@/components/ui/field";
import { lazyResolver } from "@/lib/lazy-resolver";
import type { CardValues } from "./checkout-form.schema";

// The schema (and zod) load when the form is first used.
const resolver = lazyResolver(() => import("./checkout-form.schema").then((m) => m.resolver));

type Status = "pending" | "success" | "failed";

/** "1229" → "12/29", "1" → "1", "12" → "12/", "5" → "05/" (no month starts with 2–9 in two digits). */
export function formatExpiry(text: string): string {
  let digits = text.replace(/\D/g, "").slice(0, 4);
  if (/^[2-9]/.test(digits)) digits = `0${digits}`.slice(0, 4);
  if (digits.length < 2) return digits;
  return `${digits.slice(0, 2)}/${digits.slice(2)}`;
}

async function post(url: string, body?: unknown) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body ?? {}),
  });
  return { ok: res.ok, status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
}

export function CheckoutForm({
  reference,
  initialStatus,
  businessName,
  callbackUrl,
  portalPath,
  payOn,
  authorizationUrl,
  defaultName = "",
  autoRenewDefault = false,
  renewalTerms,
  hasPhone = true,
}: {
  reference: string;
  initialStatus: Status;
  businessName: string;
  callbackUrl: string | null;
  portalPath: string;
  /** `card`: the sandbox card form; `provider`: paid on the provider's page; `unavailable`: neither. */
  payOn: "card" | "provider" | "unavailable";
  authorizationUrl: string;
  /** What the customer already gave as their name (a payment link's form). */
  defaultName?: string;
  /** The "Renew automatically" box's first state. */
  autoRenewDefault?: boolean;
  /** What automatic renewal charges: e.g. "₦5,000.00 every month". */
  renewalTerms: string;
  /** The customer already gave a phone (initialize or a payment link): the form does not ask for one. */
  hasPhone?: boolean;
}) {
  const router = useRouter();
  const [status, setStatus] = useState<Status>(initialStatus);
  const [error, setError] = useState<string | null>(null);
  const [retrying, setRetrying] = useState(false);
  const form = useForm<CardValues>({
    resolver,
    defaultValues: { name: defaultName, cardNumber: "", expiry: "", cvc: "", autoRenew: autoRenewDefault, phone: "" },
  });
  const expiry = form.register("expiry");
  const { errors, isSubmitting } = form.formState;
  const returnUrl = callbackUrl
    ? `${callbackUrl}${callbackUrl.includes("?") ? "&" : "?"}reference=${encodeURIComponent(reference)}`
    : null;

  const submit = form.handleSubmit(async (values) => {
    setError(null);
    const { Card } = await import("./checkout-form.schema"); // loaded already: the form was just validated
    const parsed = Card.parse(values);
    const [month, year] = parsed.expiry.split("/").map((s) => Number(s.trim()));
    const res = await post(`/api/checkout/${reference}`, {
      cardNumber: parsed.cardNumber,
      expMonth: month,
      expYear: year,
      cvc: parsed.cvc,
      autoRenew: parsed.autoRenew,
      ...(parsed.name ? { name: parsed.name } : {}),
      ...(!hasPhone && parsed.phone ? { phone: parsed.phone } : {}),
    });
    if (res.ok) {
      setStatus("success");
      if (returnUrl) setTimeout(() => window.location.assign(returnUrl), 1500);
      return;
    }
    const code = res.body.code as string | undefined;
    if (code === "card_declined") return setStatus("failed");
    if (code === "payment_not_pending") return router.refresh();
    // Every field the server refused, at once, under its field.
    const fieldErrors = (res.body.errors as { path: string; message: string }[] | undefined) ?? [];
    let shown = false;
    for (const e of fieldErrors) {
      const field =
        e.path === "name" || e.path === "cardNumber" || e.path === "cvc" || (e.path === "phone" && !hasPhone)
          ? e.path
          : e.path.startsWith("exp")
            ? "expiry"
            : null;
      if (!field) continue;
      form.setError(field, { message: field === "expiry" ? "The card has expired" : e.message });
      shown = true;
    }
    if (!shown) setError((res.body.detail as string | undefined) ?? "The payment could not be made. Try again.");
  });

  const retry = async () => {
    setRetrying(true);
    const res = await post(`/api/checkout/${reference}/retry`);
    setRetrying(false);
    // The new payment has the same provider: our card form, or the provider's page.
    if (res.ok && payOn === "card") router.push(`/pay/${res.body.reference as string}`);
    else if (res.ok) window.location.assign(res.body.authorizationUrl as string);
    else setError((res.body.detail as string | undefined) ?? "Could not start a new payment.");
  };

  if (status === "success") {
    return (
      <div className="text-center" role="status">
        <CheckCircle2 className="mx-auto h-10 w-10 text-emerald-600" aria-hidden />
        <h2 className="mt-2 text-lg font-semibold">Payment successful</h2>
        <p className="mt-1 text-sm text-slate-600">You are covered. {businessName} will send you the details.</p>
        <a href={portalPath} className="mt-4 block text-sm font-medium text-brand-700 underline underline-offset-2">
          See your cover and download your certificate
        </a>
        {returnUrl && (
          <a href={returnUrl} className="mt-4 inline-block text-sm font-medium text-brand-600 hover:underline">
            Return to {businessName}
          </a>
        )}
      </div>
    );
  }

  if (status === "failed") {
    return (
      <div className="text-center" role="alert">
        <XCircle className="mx-auto h-10 w-10 text-red-600" aria-hidden />
        <h2 className="mt-2 text-lg font-semibold">{payOn === "card" ? "Payment declined" : "Payment not completed"}</h2>
        <p className="mt-1 text-sm text-slate-600">
          {payOn === "card" ? "Your card was declined" : "The payment did not go through"} and you were not charged.
        </p>
        {error && <p className="mt-2 text-sm text-red-700">{error}</p>}
        {payOn === "unavailable" ? (
          <p className="mt-2 text-sm text-slate-600">Ask {businessName} for a new payment link.</p>
        ) : (
          <Button className="mt-4 w-full" loading={retrying} onClick={retry}>
            {payOn === "card" ? "Try again with another card" : "Try again"}
          </Button>
        )}
      </div>
    );
  }

  if (payOn === "unavailable") {
    return (
      <p className="text-center text-sm text-slate-600" role="status">
        This payment link can no longer be used. Ask {businessName} for a new one.
      </p>
    );
  }

  if (payOn === "provider") {
    // Paid on the provider's page; never with the sandbox card form.
    return (
      <Button asChild className="w-full">
        <a href={authorizationUrl}>Continue to payment</a>
      </Button>
    );
  }

  return (
    <form onSubmit={submit} onFocus={resolver.preload} noValidate className="space-y-4">
      <FormError message={error} />
      <Field
        id="card-name"
        label="Your name (optional)"
        hint="So the business knows who is covered."
        error={errors.name?.message}
      >
        <Input id="card-name" autoComplete="cc-name" aria-invalid={!!errors.name} {...form.register("name")} />
      </Field>
      {!hasPhone && (
        <Field
          id="customer-phone"
          label="Mobile number (for text messages about your cover)"
          hint="Optional: with the country code (+234…) or as you dial it at home. Receipts and news of your claims then come by text too; turn them off any time in the policyholder portal."
          error={errors.phone?.message}
        >
          <Input
            id="customer-phone"
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            aria-invalid={!!errors.phone}
            aria-describedby={errors.phone ? "customer-phone-error" : undefined}
            {...form.register("phone")}
          />
        </Field>
      )}
      <Field
        id="card-number"
        label="Card number"
        hint="Sandbox: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined, 4000 0000 0000 0341 pays once and declines its renewals."
        error={errors.cardNumber?.message}
      >
        <Input
          id="card-number"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 1234 1234 1234"
          aria-invalid={!!errors.cardNumber}
          {...form.register("cardNumber")}
        />
      </Field>
      <div className="grid grid-cols-2 gap-4">
        <Field id="card-expiry" label="Expiry" error={errors.expiry?.message}>
          <Input
            id="card-expiry"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM/YY"
            aria-invalid={!!errors.expiry}
            {...expiry}
            onChange={(e) => {
              // Formatted as typed: "1229" → "12/29" (a deleted slash is not put back at once).
              const deleting = (e.nativeEvent as InputEvent).inputType?.startsWith("delete");
              if (!deleting) e.target.value = formatExpiry(e.target.value);
              return expiry.onChange(e);
            }}
          />
        </Field>
        <Field id="card-cvc" label="CVC" error={errors.cvc?.message}>
          <Input
            id="card-cvc"
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            aria-invalid={!!errors.cvc}
            {...form.register("cvc")}
          />
        </Field>
      </div>
      <div className="flex items-start gap-3 rounded-md border border-slate-200 p-3">
        <input
          id="auto-renew"
          type="checkbox"
          className="mt-0.5 h-4 w-4 shrink-0 rounded border-slate-300 accent-[var(--accent)]"
          aria-describedby="auto-renew-terms"
          {...form.register("autoRenew")}
        />
        <div className="text-sm">
          <label htmlFor="auto-renew" className="font-medium text-slate-900">
            Renew automatically
          </label>
          <p id="auto-renew-terms" className="mt-0.5 text-slate-600">
            I agree that {businessName} charges this card {renewalTerms} when my cover ends, until I turn automatic renewal off
            in the policyholder portal. If a charge fails I stay covered for 7 days while it is tried again.
          </p>
        </div>
      </div>
      <Button
        type="submit"
        className="w-full bg-[var(--accent)] text-[var(--on-accent)] hover:bg-[var(--accent)] hover:opacity-90"
        loading={isSubmitting}
      >
        Pay now
      </Button>
    </form>
  );
}
