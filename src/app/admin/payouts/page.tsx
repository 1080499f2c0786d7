import type { Metadata } from "next";
import { PayoutsView, type PayoutFilter } from "./_components/payouts-view";

export const metadata: Metadata = { title: "Payouts" };

const FILTERS: PayoutFilter[] = ["all", "pending", "processing", "paid", "failed"];

export default async function PayoutsPage({ searchParams }: { searchParams: Promise<{ status?: string | string[] }> }) {
  const { status } = await searchParams;
  const filter = FILTERS.find((f) => f === status) ?? "all";
  return <PayoutsView initialFilter={filter} />;
}
