// The database side of cursor pagination; the cursor and the page schemas are
// in @/lib/schemas/pagination, shared with the browser.
import { decodeCursor, encodeCursor, type Page, type PageQuery, type Position } from "@/lib/schemas/pagination";

export { decodeCursor, encodeCursor, pageOf, PageQuery, type Page } from "@/lib/schemas/pagination";

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
