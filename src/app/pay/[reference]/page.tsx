import type { Metadata } from "next";
import { notFound } from "next/navigation";
import type { CSSProperties, ReactNode } from "react";
import { Logo } from "@/components/logo";
import { displayMoney } from "@/lib/money-format";
import { getCheckout, type CheckoutView } from "@/server/payments/checkout";
import { CheckoutForm } from "./checkout-form";

const PERIOD_WORD: Record<string, string> = { monthly: "month", quarterly: "quarter", yearly: "year" };

export const metadata: Metadata = { title: "Checkout", robots: { index: false } };
export const dynamic = "force-dynamic";

export default async function PayPage({ params }: { params: Promise<{ reference: string }> }) {
  const { reference } = await params;
  const checkout = await getCheckout(reference);
  if (!checkout) notFound();
  return (
    <Frame sandbox={checkout.payOn === "card"} test={!checkout.livemode} business={checkout.business}>
      <h1 className="mt-1 text-xl font-semibold">{checkout.policy.name}</h1>
      <p className="mt-1 text-sm capitalize text-slate-600">
        {checkout.policy.type} insurance · {checkout.policy.duration}
      </p>
      <div className="mt-4 flex items-baseline justify-between border-y border-slate-200 py-4">
        <span className="text-sm text-slate-600">Total</span>
        <span className="text-2xl font-semibold tabular-nums" data-testid="checkout-amount">
          {displayMoney(checkout.amount, checkout.currency)}
        </span>
      </div>
      <p className="mt-3 text-xs text-slate-500">Cover for {checkout.email}</p>
      <div className="mt-6">
        <CheckoutForm
          reference={checkout.reference}
          initialStatus={checkout.status}
          businessName={checkout.business.name}
          callbackUrl={checkout.callbackUrl}
          payOn={checkout.payOn}
          authorizationUrl={checkout.authorizationUrl}
          portalPath={checkout.portalPath}
          defaultName={checkout.customerName ?? ""}
          autoRenewDefault={checkout.autoRenew}
          hasPhone={checkout.hasPhone}
          renewalTerms={`${displayMoney(checkout.amount, checkout.currency)} every ${PERIOD_WORD[checkout.policy.duration] ?? "period"}`}
        />
      </div>
    </Frame>
  );
}

function Frame({
  children,
  sandbox,
  test,
  business,
}: {
  children: ReactNode;
  sandbox: boolean;
  test: boolean;
  business: CheckoutView["business"];
}) {
  // The business's own colours on its checkout (the button too: --accent, see checkout-form.tsx).
  const style = { "--accent": business.accent, "--on-accent": business.onAccent } as CSSProperties;
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-10" style={style}>
      <div
        className="flex w-full max-w-md items-center gap-3 rounded-lg bg-[var(--accent)] px-4 py-3 text-[var(--on-accent)]"
        data-testid="checkout-business"
      >
        {business.logoUrl && (
          // eslint-disable-next-line @next/next/no-img-element -- the business's logo, served by the app
          <img src={business.logoUrl} alt="" className="h-9 w-auto max-w-[96px] rounded bg-white object-contain" />
        )}
        <span className="font-semibold [overflow-wrap:anywhere]">{business.name}</span>
      </div>
      {test && (
        <div
          role="note"
          data-testid="checkout-test-banner"
          className="mt-6 w-full max-w-md rounded-lg border-2 border-amber-500 bg-amber-100 px-4 py-3 text-sm text-amber-950"
        >
          <p className="font-bold uppercase tracking-wide">Test payment</p>
          <p className="mt-1">No real money moves and no real cover is bought. Use a test card:</p>
          <ul className="mt-1 list-disc pl-5">
            <li>
              <span className="font-mono">4242 4242 4242 4242</span> pays
            </li>
            <li>
              <span className="font-mono">4000 0000 0000 0002</span> is declined
            </li>
            <li>
              <span className="font-mono">4000 0000 0000 0341</span> pays, then declines its automatic renewals
            </li>
          </ul>
        </div>
      )}
      <div className="mt-8 w-full max-w-md rounded-lg border border-slate-200 bg-white p-6 shadow-sm sm:p-8">{children}</div>
      <p className="mt-6 flex items-center gap-2 text-xs text-slate-500">
        <Logo compact /> Secure checkout by Coverdesk{sandbox ? " · sandbox" : ""}
      </p>
    </main>
  );
}
