import type { Metadata } from "next";
import { PaymentLinksView } from "./_components/payment-links-view";

export const metadata: Metadata = { title: "Payment links" };

export default function PaymentLinksPage() {
  return <PaymentLinksView />;
}
