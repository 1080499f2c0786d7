"use client";

import { useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useState } from "react";

/**
 * Writes query parameters without a navigation (no server round trip): Next
 * syncs useSearchParams with a replaceState whose state is not its own, so
 * the state passed is null (Next copies its internal state over).
 */
export function replaceQuery(changes: Record<string, string | null>) {
  const params = new URLSearchParams(window.location.search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === "") params.delete(key);
    else params.set(key, value);
  }
  const query = params.toString();
  window.history.replaceState(null, "", `${window.location.pathname}${query ? `?${query}` : ""}`);
}

/** A list page's filters, kept in the URL (shareable, kept on reload); "" when absent. */
export function useQueryState<K extends string>(keys: readonly K[]): [Record<K, string>, (patch: Partial<Record<K, string>>) => void] {
  const params = useSearchParams();
  const key = keys.map((k) => `${k}=${params.get(k) ?? ""}`).join("&");
  const values = useMemo(
    () => Object.fromEntries(keys.map((k) => [k, params.get(k) ?? ""])) as Record<K, string>,
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [key],
  );
  const set = useCallback((patch: Partial<Record<K, string>>) => replaceQuery(patch as Record<string, string>), []);
  return [values, set];
}

/** The value, once it has stopped changing for `ms` (search boxes). */
export function useDebounced<T>(value: T, ms = 300): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
