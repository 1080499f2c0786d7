// The Settings pages' own links, under the page header: the organization's
// settings and its notifications (the user's phone, the policyholders' messages).
import Link from "next/link";
import { cn } from "@/lib/cn";

const ITEMS = [
  { href: "/settings", label: "General" },
  { href: "/settings/notifications", label: "Notifications" },
] as const;

export function SettingsNav({ current }: { current: (typeof ITEMS)[number]["href"] }) {
  return (
    <nav aria-label="Settings" className="-mt-2 mb-6 flex gap-1 overflow-x-auto border-b border-slate-200">
      {ITEMS.map((item) => {
        const active = item.href === current;
        return (
          <Link
            key={item.href}
            href={item.href}
            aria-current={active ? "page" : undefined}
            className={cn(
              "-mb-px shrink-0 whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium",
              active ? "border-brand-600 text-brand-700" : "border-transparent text-slate-600 hover:text-slate-900",
            )}
          >
            {item.label}
          </Link>
        );
      })}
    </nav>
  );
}
