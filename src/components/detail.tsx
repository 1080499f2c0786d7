import { ArrowLeft } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";

/** "← Payments": the way back to a record's list, at the top of its page. */
export function BackLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link href={href} className="mb-4 inline-flex items-center gap-1 text-sm text-slate-600 hover:text-slate-900">
      <ArrowLeft className="h-4 w-4" aria-hidden /> {children}
    </Link>
  );
}

/** Labelled facts of a record, two columns on wide screens, one on phones. */
export function Facts({ items }: { items: { label: string; value: ReactNode; testId?: string }[] }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
      {items.map((i) => (
        <div key={i.label} className="min-w-0">
          <dt className="text-xs text-slate-600">{i.label}</dt>
          <dd className="mt-0.5 text-slate-900 [overflow-wrap:anywhere]" data-testid={i.testId}>
            {i.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
