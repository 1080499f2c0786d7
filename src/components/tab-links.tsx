// A row of links shown as tabs under a page header (Settings, Admin): the
// current one underlined and marked aria-current="page".
import Link from "next/link";
import { cn } from "@/lib/cn";

export function TabLinks({
  label,
  items,
  current,
  className,
}: {
  /** The navigation's accessible name. */
  label: string;
  items: readonly { href: string; label: string }[];
  /** The href of the current page's tab. */
  current: string | undefined;
  className?: string;
}) {
  return (
    <nav aria-label={label} className={cn("flex gap-1 overflow-x-auto", className)}>
      {items.map((item) => {
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
