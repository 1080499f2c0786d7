"use client";

import { lazy, Suspense } from "react";
import { loadSonner } from "@/lib/toast";

// sonner's <Toaster />, loaded after the page (toasts come from actions, never from the first paint).
const SonnerToaster = lazy(() => loadSonner().then((m) => ({ default: m.Toaster })));

/** Bottom right: clear of the page headers' actions at the top right; below 600 px sonner spans the width at the bottom. */
export function Toaster() {
  return (
    <Suspense fallback={null}>
      <SonnerToaster richColors position="bottom-right" />
    </Suspense>
  );
}
