import {
  BadgeCheck,
  BarChart3,
  ClipboardList,
  CreditCard,
  FileText,
  FolderOpen,
  Home,
  KeyRound,
  Landmark,
  Settings,
  ShieldCheck,
  Users,
  Wallet,
  Webhook,
  type LucideIcon,
} from "lucide-react";

import type { Me } from "@/server/organizations/schemas";

export interface NavItem {
  href: string;
  label: string;
  icon: LucideIcon;
  /** The capability (from the server) the page needs to be worth opening; none when absent. */
  requires?: keyof Me["can"];
}

export const NAV: NavItem[] = [
  { href: "/", label: "Home", icon: Home },
  { href: "/analytics", label: "Analytics", icon: BarChart3 },
  { href: "/policies", label: "Policies", icon: FileText },
  { href: "/payments", label: "Payments", icon: CreditCard },
  // Money out: readable by every member; withdrawing and managing accounts are for owners and admins.
  { href: "/earnings", label: "Earnings", icon: Wallet },
  { href: "/bank-accounts", label: "Bank accounts", icon: Landmark },
  { href: "/customers", label: "Customers", icon: ShieldCheck },
  { href: "/claims", label: "Claims", icon: ClipboardList },
  { href: "/documents", label: "Documents", icon: FolderOpen },
  { href: "/kyb", label: "Verification (KYB)", icon: BadgeCheck },
  // Members and invitees' emails are for owners and admins; the rest is readable by everyone (read-only for a MEMBER).
  { href: "/team", label: "Team", icon: Users, requires: "adminRead" },
  { href: "/api-keys", label: "API keys", icon: KeyRound },
  { href: "/webhooks", label: "Webhooks", icon: Webhook },
  { href: "/settings", label: "Settings", icon: Settings },
];

export const navFor = (can: Me["can"]) => NAV.filter((item) => !item.requires || can[item.requires]);
