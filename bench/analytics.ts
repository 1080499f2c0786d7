// npm run bench:analytics [-- --payments 1000000 --policies 2000 --runs 50 --keep]
//
// Times the analytics services on one large organization in a fresh PostgreSQL
// database: 2 000 policies, 1 000 000 payments over the last 365 days (~90 %
// paid, each with its `payment` and `fee` ledger rows and a coverage created or
// renewed; the rest failed or pending), ~3 000 claims, and 30 days of per-minute
// API usage (4 routes × 2 keys × every minute). The database is created on
// DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432), migrated,
// seeded with INSERT … SELECT generate_series (bench/seed.ts, shared with
// `npm run bench`), VACUUM ANALYZEd, then each service
// is run warm `--runs` times; the table (p50/p95/max) is printed and written to
// bench/analytics-results.json. The database is dropped at the end (`--keep`
// leaves it for EXPLAIN).
//
// The rollup triggers are disabled during the bulk seed and the rollups filled
// from `analytics_source` afterwards (see seedHistory in bench/seed.ts); the
// triggers are re-enabled before timing.
import fs from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import pg from "pg";
import { countRows, createBenchDatabase, migrate, policyId, seedHistory, seedOrganizations, step } from "./seed";

const { values: args } = parseArgs({
  options: {
    payments: { type: "string", default: "1000000" },
    policies: { type: "string", default: "2000" },
    claims: { type: "string", default: "3000" },
    runs: { type: "string", default: "50" },
    keep: { type: "boolean", default: false },
  },
});
const PAYMENTS = Number(args.payments);
const POLICIES = Number(args.policies);
const CLAIMS = Number(args.claims);
const RUNS = Number(args.runs);
const WARMUP = 5;
const RESULTS = path.join(process.cwd(), "bench/analytics-results.json");

const log = (line: string) => process.stdout.write(`${line}\n`);

interface Timing {
  name: string;
  p50: number;
  p95: number;
  max: number;
  runs: number;
}

async function time(name: string, run: () => Promise<unknown>): Promise<Timing> {
  for (let i = 0; i < WARMUP; i++) await run();
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await run();
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.ceil(q * ms.length) - 1)]!;
  const round = (n: number) => Math.round(n * 10) / 10;
  const t = { name, p50: round(at(0.5)), p95: round(at(0.95)), max: round(ms[ms.length - 1]!), runs: RUNS };
  log(
    `  ${name.padEnd(44)} p50 ${String(t.p50).padStart(7)} ms   p95 ${String(t.p95).padStart(7)} ms   max ${String(t.max).padStart(7)} ms`,
  );
  return t;
}

async function main() {
  const database = await createBenchDatabase();
  log(`Created ${database.name}`);
  // The app (env.ts, db/client.ts) reads DATABASE_URL when first imported: only after this.
  process.env.DATABASE_URL = database.url;
  process.env.LOG_LEVEL ||= "warn";
  let disconnect: (() => Promise<void>) | undefined;
  try {
    await step(log, "migrations", () => migrate(database.url));

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    log("Seeding:");
    const seeded = await (async () => {
      // One organization with 2 keys (the API usage is spread over them), its policies and its history.
      const [org] = await seedOrganizations(client, { orgs: 1, policiesPerOrg: POLICIES, keysPerOrg: 2, log });
      await seedHistory(client, {
        n: org!.n,
        policies: POLICIES,
        payments: PAYMENTS,
        claims: CLAIMS,
        apiKeyIds: org!.keys.map((k) => k.id),
        log,
      });
      await step(log, "VACUUM ANALYZE", () => client.query("VACUUM ANALYZE"));
      return { org: org!, counts: await countRows(client) };
    })().finally(() => client.end());
    const counts = seeded.counts;
    log(`  rows: ${JSON.stringify(counts)}`);

    const db = await import("@/server/db/client");
    disconnect = db.disconnectDatabase;
    const analytics = await import("@/server/analytics/service");
    const { getPolicyAnalytics } = await import("@/server/policies/analytics");
    const actor = { organizationId: seeded.org.id, userId: seeded.org.userId, role: "OWNER" as const };
    const today = new Date().toISOString().slice(0, 10);
    const daysBefore = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
    const year = { from: daysBefore(364), to: today };

    const overview = await analytics.getAnalyticsOverview(actor);
    log(`  overview: ${JSON.stringify(overview)}`);

    log(`Timing (${WARMUP} warm-up runs, then ${RUNS} runs each):`);
    const timings: Timing[] = [];
    const cases: [string, () => Promise<unknown>][] = [
      ["getAnalyticsOverview", () => analytics.getAnalyticsOverview(actor)],
      ["getDashboardStats (30 days)", () => analytics.getDashboardStats(actor, {})],
      ["getRevenueAnalytics (30 days, day)", () => analytics.getRevenueAnalytics(actor, { granularity: "day" })],
      ["getRevenueAnalytics (365 days, day)", () => analytics.getRevenueAnalytics(actor, { ...year, granularity: "day" })],
      ["getRevenueAnalytics (365 days, month)", () => analytics.getRevenueAnalytics(actor, { ...year, granularity: "month" })],
      ["getApiUsage (30 days, day)", () => analytics.getApiUsage(actor, { granularity: "day" })],
      ["getApiUsage (30 days, hour)", () => analytics.getApiUsage(actor, { granularity: "hour" })],
      ["getPolicyAnalytics (30 days)", () => getPolicyAnalytics(actor, policyId(seeded.org.n, 1), {})],
      [
        "getPolicyAnalytics (365 days)",
        () => getPolicyAnalytics(actor, policyId(seeded.org.n, 1), { ...year, granularity: "day" }),
      ],
    ];
    for (const [name, run] of cases) timings.push(await time(name, run));

    const table = [
      "| service | p50 ms | p95 ms | max ms |",
      "|---|---:|---:|---:|",
      ...timings.map((t) => `| ${t.name} | ${t.p50} | ${t.p95} | ${t.max} |`),
    ].join("\n");
    log(`\n${table}\n`);
    const pgVersion = (await db.db.$queryRaw<{ v: string }[]>`SELECT current_setting('server_version') AS v`)[0]?.v;
    await fs.writeFile(
      RESULTS,
      `${JSON.stringify(
        {
          measuredAt: new Date().toISOString(),
          postgres: pgVersion,
          node: process.version,
          seed: { payments: PAYMENTS, policies: POLICIES, claims: CLAIMS, rows: counts },
          warmupRuns: WARMUP,
          timings,
        },
        null,
        2,
      )}\n`,
    );
    log(`Wrote ${path.relative(process.cwd(), RESULTS)}`);
    const slow = timings.find((t) => t.name === "getAnalyticsOverview");
    if (slow && slow.p95 >= 200) log(`getAnalyticsOverview p95 ${slow.p95} ms is over the 200 ms target`);
  } finally {
    await disconnect?.().catch(() => {});
    if (args.keep) log(`Kept the database: ${database.url}`);
    else {
      await database.drop();
      log(`Dropped ${database.name}`);
    }
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
