import type { Metadata } from "next";
import { KybView } from "./_components/kyb-view";

export const metadata: Metadata = { title: "Verification (KYB)" };

// Every member sees the status and documents; submitting is for owners and admins.
export default function KybPage() {
  return <KybView />;
}
