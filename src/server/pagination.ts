// Cursor pagination, newest first, over (createdAt desc, id desc). The cursor
// is opaque to clients: base64url of the last row's createdAt and id.
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

interface Position {
  createdAt: Date;
  id: string;
}

export function encodeCursor(row: Position): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString("base64url");
}

// What `encodeCursor` writes: a 4-digit-year ISO instant, then a record id.
const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|([\w-]{1,100})$/;
const EARLIEST = Date.UTC(2000, 0, 1);

/** Returns null for a cursor that is not ours; callers answer it as an invalid query. */
export function decodeCursor(cursor: string): Position | null {
  const m = CURSOR.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!m?.[1] || !m[2]) return null;
  const createdAt = new Date(m[1]);
  // Only instants that round-trip, from a plausible row: no year 0001 or −271821 reaches the database.
  if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== m[1] || createdAt.getTime() < EARLIEST) return null;
  return { createdAt, id: m[2] };
}

/** The `where` fragment and ordering that continue after a cursor. */
export function pageArgs(page: PageQuery) {
  const after = page.cursor ? decodeCursor(page.cursor) : null;
  return {
    where: after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {},
    orderBy: [{ createdAt: "desc" as const }, { id: "desc" as const }],
    take: page.limit + 1,
  };
}

export function toPage<R extends Position, T>(rows: R[], page: PageQuery, map: (row: R) => T): Page<T> {
  const more = rows.length > page.limit;
  const slice = more ? rows.slice(0, page.limit) : rows;
  const last = slice[slice.length - 1];
  return { data: slice.map(map), nextCursor: more && last ? encodeCursor(last) : null };
}
