import type { Metadata } from "next";
import { CustomersView } from "./_components/customers-view";

export const metadata: Metadata = { title: "Customers" };

export default function CustomersPage() {
  return <CustomersView />;
}
