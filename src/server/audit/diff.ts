// What changed between two views of a resource, for an audit entry's details:
// `{ before, after }` of only the fields whose value differs (compared as JSON).
export interface Changes {
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The fields of `fields` (all of `after`'s when not given) that differ. */
export function changesOf<T extends Record<string, unknown>>(before: T, after: T, fields?: readonly (keyof T)[]): Changes {
  const out: Changes = { before: {}, after: {} };
  for (const key of fields ?? (Object.keys(after) as (keyof T)[])) {
    if (same(before[key], after[key])) continue;
    out.before[key as string] = before[key] ?? null;
    out.after[key as string] = after[key] ?? null;
  }
  return out;
}

export const changed = (c: Changes) => Object.keys(c.after).length > 0;
