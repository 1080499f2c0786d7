// Cursor pagination, newest first, over (createdAt desc, id desc). The cursor
// is opaque to clients: base64url of the last row's createdAt and id. Shared by
// the server and the browser (no Node API here).
import { M, z } from "@/lib/messages";

export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20).describe("Page size, 1–100"),
  cursor: z
    .string()
    .max(200)
    .refine((c) => decodeCursor(c) !== null, M.cursor)
    .optional()
    .describe("`nextCursor` from the previous page"),
});
export type PageQuery = z.infer<typeof PageQuery>;

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

/** The schema of a `Page` of `item`s, for the API reference and the dashboard's answers. */
export function pageOf<T extends z.ZodType>(item: T, id: string) {
  return z
    .object({
      data: z.array(item),
      nextCursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last"),
    })
    .meta({ id });
}

export interface Position {
  createdAt: Date;
  id: string;
}

// The cursor's text is ASCII (an ISO instant and a record id), so btoa/atob suffice on both sides.
const toBase64Url = (text: string) => btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
function fromBase64Url(text: string): string | null {
  try {
    return atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    return null;
  }
}

export function encodeCursor(row: Position): string {
  return toBase64Url(`${row.createdAt.toISOString()}|${row.id}`);
}

// What `encodeCursor` writes: a 4-digit-year ISO instant, then a record id.
const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|([\w-]{1,100})$/;
const EARLIEST = Date.UTC(2000, 0, 1);

/** Returns null for a cursor that is not ours; callers answer it as an invalid query. */
export function decodeCursor(cursor: string): Position | null {
  const m = CURSOR.exec(fromBase64Url(cursor) ?? "");
  if (!m?.[1] || !m[2]) return null;
  const createdAt = new Date(m[1]);
  // Only instants that round-trip, from a plausible row: no year 0001 or −271821 reaches the database.
  if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== m[1] || createdAt.getTime() < EARLIEST) return null;
  return { createdAt, id: m[2] };
}
