import type { Metadata } from "next";
import { RenewalsView } from "./_components/renewals-view";

export const metadata: Metadata = { title: "Renewals" };

export default function RenewalsPage() {
  return <RenewalsView />;
}
