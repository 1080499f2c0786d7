// Direct SQL for the few specs that must put the database in a state no
// request can (a session signed in 11 minutes ago). PostgreSQL run only: the
// embedded database lives inside the app's process.
import pg from "pg";

export const onPostgres = process.env.E2E_DATABASE === "postgres" && !!process.env.DATABASE_URL;

export async function sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** The user's sessions, as if signed in `minutes` ago and never confirmed since (recent authentication). */
export async function ageSessions(userId: string, minutes = 11): Promise<void> {
  await sql(
    `UPDATE session SET "createdAt" = now() - make_interval(mins => $2), "reauthenticatedAt" = NULL WHERE "userId" = $1`,
    [userId, minutes],
  );
}
