"use client";

import { lazy, Suspense, useSyncExternalStore, type ComponentType, type ReactNode } from "react";

const subscribeNothing = () => () => {};
/** False on the server and while hydrating, true once the page runs in the browser. */
const useHydrated = () =>
  useSyncExternalStore(
    subscribeNothing,
    () => true,
    () => false,
  );

/**
 * A component whose code (a form with react-hook-form, an upload widget) is
 * split from the page's first load. `fallback` (a skeleton of its size) stands
 * in while the code loads.
 *
 * - Mounted after the page's data (the default): call `preload` on mount so the
 *   chunk comes alongside the data; if the component renders on the server it
 *   hydrates when its chunk arrives.
 * - `clientOnly`: for a form that would otherwise be on the first paint. The
 *   server and the first client render show the fallback, and the form appears
 *   ready to use — never as inert HTML that could take typing its code then
 *   resets. Preload it where people head for it (hover on the link).
 */
export function lazyComponent<P extends object>(
  load: () => Promise<ComponentType<P>>,
  fallback: ReactNode,
  { clientOnly = false }: { clientOnly?: boolean } = {},
) {
  const preload = () => void load().catch(() => undefined);
  const Lazy = lazy(() => load().then((component) => ({ default: component })));
  function LazyComponent(props: P) {
    const hydrated = useHydrated();
    if (clientOnly && !hydrated) return fallback;
    return (
      <Suspense fallback={fallback}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  return Object.assign(LazyComponent, { preload });
}
