import { ShieldCheck } from "lucide-react";

export function Logo({ compact = false }: { compact?: boolean }) {
  return (
    <span className="inline-flex items-center gap-2 font-semibold tracking-tight text-slate-900">
      <span className="flex h-8 w-8 items-center justify-center rounded-md bg-brand-600 text-white">
        <ShieldCheck className="h-5 w-5" aria-hidden />
      </span>
      {!compact && <span className="text-lg">Coverdesk</span>}
    </span>
  );
}
