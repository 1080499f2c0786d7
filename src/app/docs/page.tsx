import type { Metadata } from "next";
import { ArrowLeft, Menu } from "lucide-react";
import Link from "next/link";
import { Logo } from "@/components/logo";
import { GUIDES, Guides } from "./guides";
import { referenceView, type TagView } from "./openapi-view";
import { Reference, SharedResponses } from "./reference";
import { Method } from "./ui";

export const metadata: Metadata = { title: "API reference" };

function NavLinks({ tags }: { tags: TagView[] }) {
  const link = "block rounded px-2 py-1 text-slate-700 hover:bg-slate-100 hover:text-slate-900";
  return (
    <>
      <p className="px-2 text-xs font-semibold tracking-wide text-slate-600 uppercase">Guides</p>
      <ul className="mt-1 mb-5 space-y-0.5">
        {GUIDES.map((g) => (
          <li key={g.id}>
            <a href={`#${g.id}`} className={link}>
              {g.title}
            </a>
          </li>
        ))}
      </ul>
      <p className="px-2 text-xs font-semibold tracking-wide text-slate-600 uppercase">API reference</p>
      <ul className="mt-1 space-y-3">
        {tags.map((tag) => (
          <li key={tag.id}>
            <a href={`#${tag.id}`} className={`${link} font-medium text-slate-900`}>
              {tag.name}
            </a>
            <ul className="mt-0.5 space-y-0.5">
              {tag.operations.map((op) => (
                <li key={op.id}>
                  <a href={`#${op.id}`} className={`${link} flex items-center gap-2 text-[13px]`}>
                    <span className="sr-only">{op.method}</span>
                    <span aria-hidden className="w-11 shrink-0 font-mono text-[10px] font-semibold text-slate-600">
                      {op.method}
                    </span>
                    <span className="min-w-0">{op.summary}</span>
                  </a>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </>
  );
}

// Server-rendered from the OpenAPI document served at /api/v1/openapi.json; the
// only interaction, the phone's menu, is a <details> (no client script).
export default function DocsPage() {
  const ref = referenceView();
  return (
    <div className="min-h-screen bg-white">
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

      <div className="mx-auto flex max-w-7xl">
        <aside className="sticky top-14 hidden h-[calc(100vh-3.5rem)] w-72 shrink-0 overflow-y-auto border-r border-slate-200 px-3 py-6 text-sm lg:block">
          <nav aria-label="Documentation">
            <NavLinks tags={ref.tags} />
          </nav>
        </aside>

        <main className="min-w-0 flex-1 px-4 pb-24 sm:px-8">
          <details className="group -mx-4 border-b border-slate-200 bg-slate-50 px-4 sm:-mx-8 sm:px-8 lg:hidden">
            <summary className="flex cursor-pointer list-none items-center gap-2 py-3 text-sm font-semibold text-slate-800 [&::-webkit-details-marker]:hidden">
              <Menu className="h-4 w-4" aria-hidden />
              Contents
            </summary>
            <nav aria-label="Documentation contents" className="max-h-[60vh] overflow-y-auto pb-4 text-sm">
              <NavLinks tags={ref.tags} />
            </nav>
          </details>

          <div className="pt-8">
            <h1 className="text-3xl font-bold tracking-tight text-slate-900">{ref.title}</h1>
            <p className="mt-1 text-sm text-slate-600">
              Version {ref.version} · base URL <code className="font-mono break-all">{ref.baseUrl}</code> ·{" "}
              <a href="/api/v1/openapi.json" className="font-medium text-brand-700 underline">
                OpenAPI document
              </a>
            </p>
          </div>

          <Guides baseUrl={ref.baseUrl} />

          <div className="pt-10">
            <p className="text-xs font-semibold tracking-wide text-slate-600 uppercase">API reference</p>
            <p className="mt-1 text-sm text-slate-700">
              Every endpoint, grouped by resource. <Method method="POST" /> requests accept an{" "}
              <code className="font-mono">Idempotency-Key</code>.
            </p>
            <SharedResponses responses={ref.shared} />
          </div>
          <Reference tags={ref.tags} />
        </main>
      </div>
    </div>
  );
}
