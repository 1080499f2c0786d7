import type { Metadata } from "next";
import { EarningsView } from "./_components/earnings-view";

export const metadata: Metadata = { title: "Earnings" };

// Readable by every member; withdrawing is for owners and admins (the view hides it from the others).
export default function EarningsPage() {
  return <EarningsView />;
}
