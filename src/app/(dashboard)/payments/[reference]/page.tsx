import type { Metadata } from "next";
import { PaymentDetail } from "./payment-detail";

export const metadata: Metadata = { title: "Payment" };

export default async function PaymentPage({ params }: { params: Promise<{ reference: string }> }) {
  return <PaymentDetail reference={(await params).reference} />;
}
