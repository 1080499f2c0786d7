import type { Metadata } from "next";
import { KybQueueView, type QueueFilter } from "./_components/kyb-queue-view";

export const metadata: Metadata = { title: "KYB reviews" };

const FILTERS: QueueFilter[] = ["pending", "approved", "rejected", "all"];

export default async function KybQueuePage({ searchParams }: { searchParams: Promise<{ status?: string | string[] }> }) {
  const { status } = await searchParams;
  const filter = FILTERS.find((f) => f === status) ?? "pending";
  return <KybQueueView initialFilter={filter} />;
}
