"use client";

import { lazy, Suspense, type ComponentType } from "react";
import { preloadDialog, useOpenedOnce } from "@/components/ui/dialog";

/**
 * A dialog component whose code — its form, react-hook-form,
 * its schema — loads when it first opens rather than with the page. Closed, it
 * renders nothing, as the dialog it stands for does.
 *
 *   const InviteDialog = lazyDialog(() => import("./invite-dialog").then((m) => m.InviteDialog));
 *
 * `isOpen` tells from the props whether it is open (default: their `open`).
 */
export function lazyDialog<P extends object>(
  load: () => Promise<ComponentType<P>>,
  isOpen: (props: P) => boolean = (props) => (props as { open?: boolean }).open === true,
) {
  const Lazy = lazy(() => load().then((component) => ({ default: component })));
  function LazyDialog(props: P) {
    const opened = useOpenedOnce(isOpen(props));
    if (!opened) return null;
    preloadDialog(); // Radix, in parallel with the dialog's own chunk
    return (
      <Suspense fallback={null}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  return Object.assign(LazyDialog, { preload: () => void load().catch(() => undefined) });
}
