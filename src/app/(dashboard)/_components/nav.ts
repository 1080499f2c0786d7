import type { Me } from "@/lib/schemas/organizations";

// The icons are drawn on the server (./nav-icons.tsx, passed to the Shell as elements): no icon code in the browser.
export interface NavItem {
  href: string;
  label: string;
  /** The capability (from the server) the page needs to be worth opening; none when absent. */
  requires?: keyof Me["can"];
}

export const NAV = [
  { href: "/", label: "Home" },
  { href: "/analytics", label: "Analytics" },
  { href: "/policies", label: "Policies" },
  { href: "/payments", label: "Payments" },
  { href: "/payment-links", label: "Payment links" },
  { href: "/renewals", label: "Renewals" },
  // Money out: readable by every member; withdrawing and managing accounts are for owners and admins.
  { href: "/earnings", label: "Earnings" },
  { href: "/bank-accounts", label: "Bank accounts" },
  { href: "/customers", label: "Customers" },
  { href: "/claims", label: "Claims" },
  { href: "/documents", label: "Documents" },
  { href: "/kyb", label: "Verification (KYB)" },
  // Members and invitees' emails are for owners and admins; the rest is readable by everyone (read-only for a MEMBER).
  { href: "/team", label: "Team", requires: "adminRead" },
  // Who changed what: owners and admins only.
  { href: "/audit-log", label: "Audit log", requires: "adminRead" },
  { href: "/api-keys", label: "API keys" },
  { href: "/webhooks", label: "Webhooks" },
  { href: "/settings", label: "Settings" },
] as const satisfies readonly NavItem[];

export type NavHref = (typeof NAV)[number]["href"];

export const navFor = (can: Me["can"]): readonly NavItem[] =>
  NAV.filter((item: NavItem) => !item.requires || can[item.requires]);
