import { redirect } from "next/navigation";

// The KYB review queue is the admin home; payouts are one tab away.
export default function AdminHome() {
  redirect("/admin/kyb");
}
