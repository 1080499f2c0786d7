"use client";

import { usePathname } from "next/navigation";
import { TabLinks } from "@/components/tab-links";

const ITEMS = [
  { href: "/admin/kyb", label: "KYB reviews" },
  { href: "/admin/payouts", label: "Payouts" },
];

export function AdminNav() {
  const pathname = usePathname();
  return <TabLinks label="Admin" items={ITEMS} current={ITEMS.find((item) => pathname.startsWith(item.href))?.href} />;
}
