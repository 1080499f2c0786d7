// Cursor pagination, newest first, over (createdAt desc, id desc). The cursor
// is opaque to clients: base64url of the last row's createdAt and id.
import { z } from "zod";

export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20).describe("Page size, 1–100"),
  cursor: z.string().max(200).optional().describe("`nextCursor` from the previous page"),
});
export type PageQuery = z.infer<typeof PageQuery>;

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

interface Position {
  createdAt: Date;
  id: string;
}

export function encodeCursor(row: Position): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString("base64url");
}

/** Returns null for a cursor that is not ours; callers answer it as an invalid query. */
export function decodeCursor(cursor: string): Position | null {
  const [iso, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const createdAt = new Date(iso ?? "");
  if (!id || Number.isNaN(createdAt.getTime())) return null;
  return { createdAt, id };
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
