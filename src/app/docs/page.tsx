import type { Metadata } from "next";
import { ArrowLeft } from "lucide-react";
import Link from "next/link";
import type { CSSProperties } from "react";
import { Logo } from "@/components/logo";
import { ApiReference } from "./api-reference";

export const metadata: Metadata = { title: "API reference" };

// Scalar's sticky sidebar and mobile menu sit below this header: it reads
// --scalar-custom-header-height (h-14 = 3.5rem).
export default function DocsPage() {
  return (
    <div className="min-h-screen bg-white" style={{ "--scalar-custom-header-height": "3.5rem" } as CSSProperties}>
      <header className="sticky top-0 z-30 flex h-14 items-center justify-between gap-3 border-b border-slate-200 bg-white px-4 sm:px-6">
        <div className="flex min-w-0 items-center gap-3">
          <span className="sm:hidden">
            <Logo compact />
            <span className="sr-only">Coverdesk</span>
          </span>
          <span className="hidden sm:inline-flex">
            <Logo />
          </span>
          <span className="hidden h-5 w-px bg-slate-200 sm:block" aria-hidden />
          <span className="truncate text-sm font-semibold text-slate-700 sm:text-base">API reference</span>
        </div>
        <Link
          href="/"
          className="inline-flex shrink-0 items-center gap-1.5 rounded-md px-2 py-1.5 text-sm font-medium text-brand-600 hover:bg-brand-50 hover:text-brand-700"
        >
          <ArrowLeft className="h-4 w-4" aria-hidden />
          Back to dashboard
        </Link>
      </header>
      <ApiReference />
    </div>
  );
}
