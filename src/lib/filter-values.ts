/**
 * A list's filters from a server page's searchParams, as useQueryState reads them in the browser: the
 * first of a repeated parameter, "" when absent.
 */
export function filterValues<K extends string>(keys: readonly K[], params: Record<string, string | string[] | undefined>) {
  return Object.fromEntries(
    keys.map((k) => {
      const v = params[k];
      return [k, (Array.isArray(v) ? v[0] : v) ?? ""];
    }),
  ) as Record<K, string>;
}

/** A server page's searchParams (Next passes them as a promise). */
export type PageSearchParams = Promise<Record<string, string | string[] | undefined>>;
