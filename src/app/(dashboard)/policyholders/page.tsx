import { redirect } from "next/navigation";

// The page was called Policyholders before it became Customers: old links still arrive.
export default function PolicyholdersPage() {
  redirect("/customers");
}
