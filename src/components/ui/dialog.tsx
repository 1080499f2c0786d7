"use client";

// Dialog and ConfirmDialog, as light as a closed dialog can be: Radix (focus
// trap, scroll lock, portal) loads when one first opens, from ./dialog-impl.
// Until then nothing is rendered, exactly as a closed Radix dialog renders nothing.
import { lazy, Suspense, useState, type ComponentProps } from "react";
import type * as Impl from "./dialog-impl";

const load = () => import("./dialog-impl");
/** Starts loading the dialog code (e.g. with the chunk of a lazily loaded dialog). */
export const preloadDialog = () => void load().catch(() => undefined);

const DialogImpl = lazy(() => load().then((m) => ({ default: m.Dialog })));
const ConfirmDialogImpl = lazy(() => load().then((m) => ({ default: m.ConfirmDialog })));

/** True from the first render where `open` is: the dialog then stays mounted (closing animates and gives focus back). */
export function useOpenedOnce(open: boolean) {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}

export function Dialog(props: ComponentProps<typeof Impl.Dialog>) {
  const opened = useOpenedOnce(props.open);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <DialogImpl {...props} />
    </Suspense>
  );
}

/** Asks before a destructive action; the action runs only on confirm. */
export function ConfirmDialog(props: ComponentProps<typeof Impl.ConfirmDialog>) {
  const opened = useOpenedOnce(props.open);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <ConfirmDialogImpl {...props} />
    </Suspense>
  );
}
