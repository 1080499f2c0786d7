/** Text for Prisma's `contains`/`startsWith` (ILIKE/LIKE): its wildcards escaped, so the search is literal. */
export const literal = (q: string) => q.replace(/[\\%_]/g, "\\$&");
