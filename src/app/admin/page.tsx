import { redirect } from "next/navigation";

// The KYB review queue is the admin area's only page so far.
export default function AdminHome() {
  redirect("/admin/kyb");
}
