// Vitest setup file (PostgreSQL only): each worker runs its files on its own
// copy of the migrated template made by src/test/global-setup.ts, so files
// side by side share no rows, no job outbox and no NOTIFY channel. Runs before
// a test file imports anything that reads DATABASE_URL; imports nothing heavy
// (it runs before every file).

/** The name of a worker's database (or of the template they are copied from) on the server at `url`. */
export function workerDatabase(url: string, suffix: string): string {
  return `${new URL(url).pathname.slice(1) || "postgres"}_vitest_${suffix}`;
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

const url = process.env.DATABASE_URL;
const worker = process.env.VITEST_POOL_ID;
if (url && worker && !process.env.VITEST_WORKER_DATABASE) {
  process.env.VITEST_WORKER_DATABASE = workerDatabase(url, worker);
  process.env.DATABASE_URL = withDatabase(url, process.env.VITEST_WORKER_DATABASE);
}
