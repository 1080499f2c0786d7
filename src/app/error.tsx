"use client";

import { useEffect } from "react";
import { Logo } from "@/components/logo";
import { SoftLink } from "@/components/soft-link";
import { Button } from "@/components/ui/button";

// A page that failed while rendering. The server logs the cause; the reader
// gets the digest (the id of that log line) to quote to support.
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);

  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-10">
      <Logo />
      <div role="alert" className="mt-8 w-full max-w-md rounded-lg border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-xl font-semibold">Something went wrong</h1>
        <p className="mt-2 text-sm text-slate-600">
          This page could not be shown. Try again; if it keeps happening, tell us what you were doing.
        </p>
        {error.digest && (
          <p className="mt-3 text-sm text-slate-600">
            Reference: <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-slate-800">{error.digest}</code>
          </p>
        )}
        <div className="mt-6 flex flex-wrap gap-3">
          <Button onClick={() => reset()}>Try again</Button>
          <Button variant="secondary" asChild>
            <SoftLink href="/">Go to the dashboard</SoftLink>
          </Button>
        </div>
      </div>
    </main>
  );
}
