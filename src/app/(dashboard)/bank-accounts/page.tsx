import type { Metadata } from "next";
import { BankAccountsView } from "./_components/bank-accounts-view";

export const metadata: Metadata = { title: "Bank accounts" };

// Owners and admins add, verify and remove accounts; other members see the list only.
export default function BankAccountsPage() {
  return <BankAccountsView />;
}
