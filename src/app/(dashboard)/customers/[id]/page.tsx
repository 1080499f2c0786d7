import type { Metadata } from "next";
import { CustomerDetail } from "./customer-detail";

export const metadata: Metadata = { title: "Customer" };

export default async function CustomerPage({ params }: { params: Promise<{ id: string }> }) {
  return <CustomerDetail id={(await params).id} />;
}
