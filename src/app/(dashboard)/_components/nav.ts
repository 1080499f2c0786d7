import {
  ClipboardList,
  CreditCard,
  FileText,
  Home,
  KeyRound,
  Settings,
  ShieldCheck,
  Users,
  Webhook,
  type LucideIcon,
} from "lucide-react";

export type Role = "OWNER" | "ADMIN" | "MEMBER";

export interface NavItem {
  href: string;
  label: string;
  icon: LucideIcon;
  /** Roles that see the item; all when absent. The server refuses the rest anyway. */
  roles?: Role[];
}

export const NAV: NavItem[] = [
  { href: "/", label: "Home", icon: Home },
  { href: "/policies", label: "Policies", icon: FileText },
  { href: "/payments", label: "Payments", icon: CreditCard },
  { href: "/policyholders", label: "Policyholders", icon: ShieldCheck },
  { href: "/claims", label: "Claims", icon: ClipboardList },
  { href: "/team", label: "Team", icon: Users, roles: ["OWNER", "ADMIN"] },
  { href: "/api-keys", label: "API keys", icon: KeyRound, roles: ["OWNER", "ADMIN"] },
  { href: "/webhooks", label: "Webhooks", icon: Webhook, roles: ["OWNER", "ADMIN"] },
  { href: "/settings", label: "Settings", icon: Settings, roles: ["OWNER", "ADMIN"] },
];

export const navFor = (role: Role) => NAV.filter((item) => !item.roles || item.roles.includes(role));
