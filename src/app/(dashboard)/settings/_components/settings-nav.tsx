// The Settings pages' own links, under the page header: the organization's
// settings and its notifications (the user's phone, the policyholders' messages).
import { TabLinks } from "@/components/tab-links";

const ITEMS = [
  { href: "/settings", label: "General" },
  { href: "/settings/notifications", label: "Notifications" },
] as const;

export function SettingsNav({ current }: { current: (typeof ITEMS)[number]["href"] }) {
  return <TabLinks label="Settings" items={ITEMS} current={current} className="-mt-2 mb-6 border-b border-slate-200" />;
}
