// The account pages' own links, under the page header: the user's profile and devices, and sign-in security.
import { TabLinks } from "@/components/tab-links";

const ITEMS = [
  { href: "/account/profile", label: "Profile and devices" },
  { href: "/account/security", label: "Security" },
] as const;

export function AccountNav({ current }: { current: (typeof ITEMS)[number]["href"] }) {
  return <TabLinks label="Your account" items={ITEMS} current={current} className="-mt-2 mb-6 border-b border-slate-200" />;
}
