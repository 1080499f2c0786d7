// The main navigation's icons, drawn by the (server) dashboard layout and handed
// to the Shell as elements: the SVGs arrive with the page, their code stays on the server.
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
  Link2,
  RefreshCw,
  ScrollText,
  Settings,
  ShieldCheck,
  Users,
  Wallet,
  Webhook,
  type LucideIcon,
} from "lucide-react";
import type { ReactNode } from "react";
import type { NavHref } from "./nav";

const ICONS: Record<NavHref, LucideIcon> = {
  "/": Home,
  "/analytics": BarChart3,
  "/policies": FileText,
  "/payments": CreditCard,
  "/payment-links": Link2,
  "/renewals": RefreshCw,
  "/earnings": Wallet,
  "/bank-accounts": Landmark,
  "/customers": ShieldCheck,
  "/claims": ClipboardList,
  "/documents": FolderOpen,
  "/kyb": BadgeCheck,
  "/team": Users,
  "/audit-log": ScrollText,
  "/api-keys": KeyRound,
  "/webhooks": Webhook,
  "/settings": Settings,
};

export type NavIcons = Record<string, ReactNode>;

export function navIcons(): NavIcons {
  const icons: NavIcons = {};
  for (const [href, Icon] of Object.entries(ICONS)) icons[href] = <Icon className="h-4 w-4" aria-hidden />;
  return icons;
}
