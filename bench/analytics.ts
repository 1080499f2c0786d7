// npm run bench:analytics [-- --payments 1000000 --policies 2000 --runs 50 --keep]
//
// Times the analytics services on one large organization in a fresh PostgreSQL
// database: 2 000 policies, 1 000 000 payments over the last 365 days (~90 %
// paid, each with its `payment` and `fee` ledger rows and a coverage created or
// renewed; the rest failed or pending), ~3 000 claims, and 30 days of per-minute
// API usage (4 routes × 2 keys × every minute). The database is created on
// DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432), migrated,
// seeded with INSERT … SELECT generate_series, VACUUM ANALYZEd, then each service
// is run warm `--runs` times; the table (p50/p95/max) is printed and written to
// bench/analytics-results.json. The database is dropped at the end (`--keep`
// leaves it for EXPLAIN).
//
// The rollup triggers are disabled during the bulk seed — firing them for ~3.5
// million rows, each upserting the same organization-day rows, takes far longer
// than the seed itself — and daily_stats / policy_daily_stats are then filled
// with the migration's own INSERT … SELECT from `analytics_source`, the view
// `npm run ledger:check` compares the rollups with; the triggers are re-enabled
// before timing.
import fs from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import pg from "pg";

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
/** Distinct customers: with PAYMENTS / CUSTOMERS ≈ 1.7 payments per (policy, customer), a third of the paid ones are renewals. */
const CUSTOMERS = Math.max(1, Math.round(PAYMENTS * 0.6));
const ORG = "bench_org";
const USER = "bench_user";
const KEYS = ["bench_key_1", "bench_key_2"];
const RESULTS = path.join(process.cwd(), "bench/analytics-results.json");

const serverUrl = new URL(process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres");
const dbName = `coverdesk_bench_${Date.now().toString(36)}`;
const adminUrl = Object.assign(new URL(serverUrl), { pathname: "/postgres" }).toString();
const benchUrl = Object.assign(new URL(serverUrl), { pathname: `/${dbName}` }).toString();

const log = (line: string) => process.stdout.write(`${line}\n`);

async function step<T>(label: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const out = await run();
  log(`  ${label.padEnd(58)} ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s`);
  return out;
}

async function seed(client: pg.Client) {
  const q = (sql: string, params: unknown[] = []) => client.query(sql, params);
  await q("SET TimeZone = 'UTC'");
  await q("SET statement_timeout = 0");
  await q("SELECT setseed(0.4217)");
  // What the app stores: UTC wall-clock timestamps without a zone.
  const now = "(now() AT TIME ZONE 'UTC')";

  await step("organization, owner, 2 API keys", async () => {
    await q(`INSERT INTO "user" (id, name, email, "updatedAt") VALUES ($1, 'Bench Owner', 'owner@bench.test', ${now})`, [USER]);
    await q(`INSERT INTO organization (id, name, "updatedAt") VALUES ($1, 'Bench Insurance Ltd', ${now})`, [ORG]);
    await q(`INSERT INTO member (id, "organizationId", "userId", role) VALUES ('bench_member', $1, $2, 'OWNER')`, [ORG, USER]);
    for (const [i, id] of KEYS.entries()) {
      await q(
        `INSERT INTO api_key (id, "organizationId", "createdById", name, permissions, prefix, "keyHash", "updatedAt")
         VALUES ($1, $2, $3, $4, ARRAY['read','write'], $5, $6, ${now})`,
        [id, ORG, USER, `Bench key ${i + 1}`, `cd_live_ben${i}`, `bench-hash-${i}`],
      );
    }
  });

  for (const [table, trigger] of [
    ["payment", "payment_analytics"],
    ["ledger_transaction", "ledger_analytics"],
    ["coverage", "coverage_analytics"],
    ["claim", "claim_analytics"],
  ]) {
    await q(`ALTER TABLE ${table} DISABLE TRIGGER ${trigger}`);
  }

  await step(`${POLICIES.toLocaleString("en")} policies`, () =>
    q(
      `INSERT INTO policy (id, "organizationId", name, type, duration, "priceMinor", currency, benefits, exclusions, "isActive", "createdAt", "updatedAt")
       SELECT 'bench_pol_' || i, $1, 'Bench cover ' || i,
         (ARRAY['auto','home','health','life','travel','property','liability','business','other'])[1 + i % 9]::"PolicyType",
         (ARRAY['monthly','quarterly','yearly'])[1 + i % 3]::"PolicyDuration",
         5000 + (i * 7919) % 495001, 'NGN', ARRAY[]::text[], ARRAY[]::text[], i % 20 <> 0,
         ${now} - interval '400 days', ${now} - interval '400 days'
       FROM generate_series(1, $2::int) i`,
      [ORG, POLICIES],
    ),
  );

  await step(`${PAYMENTS.toLocaleString("en")} payments (90 % success, 7 % failed, 3 % pending)`, () =>
    q(
      `INSERT INTO payment (id, "organizationId", "policyId", reference, email, "amountMinor", currency, status, provider,
         "authorizationUrl", "paidAt", "failureReason", "createdAt", "updatedAt")
       SELECT 'bench_pay_' || g, $1, 'bench_pol_' || (1 + g % $3::int), 'bench_ref_' || g,
         'customer' || (g % $4::int) || '@bench.test', 5000 + ((1 + g % $3::int) * 7919) % 495001, 'NGN',
         status::"PaymentStatus", 'sandbox', '',
         CASE WHEN status = 'success' THEN created + interval '1 minute' END,
         CASE WHEN status = 'failed' THEN 'Card declined' END,
         created, created + interval '1 minute'
       FROM (
         SELECT g, ${now} - interval '2 minutes' - random() * interval '365 days' AS created,
           CASE WHEN r < 0.90 THEN 'success' WHEN r < 0.97 THEN 'failed' ELSE 'pending' END AS status
         FROM (SELECT g, random() AS r FROM generate_series(1, $2::int) g) x
       ) s`,
      [ORG, PAYMENTS, POLICIES, CUSTOMERS],
    ),
  );

  await step("ledger: a payment and a fee row per paid payment", () =>
    q(
      `INSERT INTO ledger_transaction (id, "organizationId", type, "amountMinor", currency, reference, description, "policyId", "createdAt")
       SELECT 'bench_led_' || e.kind || '_' || p.id, p."organizationId", e.kind::"LedgerType",
         CASE WHEN e.kind = 'payment' THEN p."amountMinor" ELSE -((p."amountMinor" * 150 + 5000) / 10000) END,
         p.currency, p.reference, CASE WHEN e.kind = 'payment' THEN 'Payment ' ELSE 'Platform fee (1.5%) ' END || p.reference,
         p."policyId", p."paidAt"
       FROM payment p CROSS JOIN (VALUES ('payment'), ('fee')) e(kind)
       WHERE p."organizationId" = $1 AND p.status = 'success'`,
      [ORG],
    ),
  );

  await step("coverages: one per (policy, customer), renewed by later payments", () =>
    q(
      `INSERT INTO coverage (id, "organizationId", "policyId", "customerEmail", "startsAt", "endsAt", "renewalCount", "createdAt", "updatedAt")
       SELECT 'bench_cov_' || row_number() OVER (), $1, p."policyId", p.email, min(p."paidAt"),
         min(p."paidAt") + count(*) * CASE pol.duration WHEN 'monthly' THEN interval '1 month'
           WHEN 'quarterly' THEN interval '3 months' ELSE interval '1 year' END,
         count(*) - 1, min(p."paidAt"), max(p."paidAt")
       FROM payment p JOIN policy pol ON pol.id = p."policyId"
       WHERE p."organizationId" = $1 AND p.status = 'success'
       GROUP BY p."policyId", p.email, pol.duration`,
      [ORG],
    ),
  );

  await step(`${CLAIMS.toLocaleString("en")} claims in every status`, () =>
    q(
      `INSERT INTO claim (id, "organizationId", "policyId", type, description, "amountMinor", currency, status, "createdAt", "updatedAt")
       SELECT 'bench_clm_' || g, $1, 'bench_pol_' || (1 + (g * 37) % $3::int),
         (ARRAY['accident','theft','fire','flood','medical','liability','other'])[1 + g % 7]::"ClaimType",
         'Bench claim ' || g, 1000 + (g * 131) % 500000, 'NGN',
         (ARRAY['submitted','submitted','submitted','submitted','under_review','under_review','approved','approved','rejected','paid'])[1 + g % 10]::"ClaimStatus",
         created, created
       FROM (SELECT g, ${now} - random() * interval '365 days' AS created FROM generate_series(1, $2::int) g) s`,
      [ORG, CLAIMS, POLICIES],
    ),
  );

  await step("api_usage: 30 days × every minute × 2 keys × 4 routes", () =>
    q(
      `INSERT INTO api_usage ("organizationId", "apiKeyId", minute, method, route, requests, errors, "serverErrors", "latencyMsSum", "latencyBuckets")
       SELECT $1, k, minute, method, route, req, req / 10, CASE WHEN h % 97 = 0 THEN 1 ELSE 0 END, req * 14.5,
         -- 24 latency buckets (bounds in src/server/analytics/metering.ts): most under 10 ms, a tail to 200 ms
         ARRAY[0, 0, 0, 0, 0, 0, req / 2, 0, req / 4, 0, req - req / 2 - req / 4 - 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]
       FROM (
         SELECT k, minute, method, route, abs(hashtext(k || route || minute::text)) AS h,
           4 + abs(hashtext(k || route || minute::text)) % 20 AS req
         FROM generate_series(date_trunc('minute', ${now}) - interval '30 days', date_trunc('minute', ${now}), interval '1 minute') minute
         CROSS JOIN unnest($2::text[]) k
         CROSS JOIN (VALUES ('GET', '/business/policies'), ('GET', '/business/policies/{id}'),
           ('POST', '/payments/initialize'), ('GET', '/payments/verify/{reference}')) r(method, route)
       ) s`,
      [ORG, KEYS],
    ),
  );

  // The hours of those minutes, as each flush writes them (the migration's backfill).
  await step("api_usage_hourly from api_usage", () =>
    q(
      `INSERT INTO api_usage_hourly ("organizationId", "apiKeyId", hour, method, route, requests, errors, "serverErrors", "latencyMsSum", "latencyBuckets")
       SELECT "organizationId", "apiKeyId", date_trunc('hour', minute), method, route, sum(requests), sum(errors), sum("serverErrors"),
         sum("latencyMsSum"), ARRAY[${Array.from({ length: 24 }, (_, i) => `sum("latencyBuckets"[${i + 1}])`).join(", ")}]::int[]
       FROM api_usage WHERE "organizationId" = $1 GROUP BY 1, 2, 3, 4, 5`,
      [ORG],
    ),
  );

  await step("daily_stats and policy_daily_stats from analytics_source", async () => {
    await q(
      `INSERT INTO "daily_stats" ("organizationId", day, "paymentsCreated", "paymentsSucceeded", "paymentsFailed", "grossMinor",
         "feesMinor", "withdrawnMinor", "reversedMinor", purchases, renewals, "claimsFiled", "claimedMinor")
       SELECT "organizationId", day, sum("paymentsCreated"), sum("paymentsSucceeded"), sum("paymentsFailed"), sum("grossMinor"),
         sum("feesMinor"), sum("withdrawnMinor"), sum("reversedMinor"), sum(purchases), sum(renewals), sum("claimsFiled"), sum("claimedMinor")
       FROM "analytics_source" GROUP BY "organizationId", day`,
    );
    await q(
      `INSERT INTO "policy_daily_stats" ("organizationId", "policyId", day, "paymentsCreated", "paymentsSucceeded", "paymentsFailed",
         "grossMinor", "feesMinor", purchases, renewals, "claimsFiled", "claimedMinor")
       SELECT "organizationId", "policyId", day, sum("paymentsCreated"), sum("paymentsSucceeded"), sum("paymentsFailed"),
         sum("grossMinor"), sum("feesMinor"), sum(purchases), sum(renewals), sum("claimsFiled"), sum("claimedMinor")
       FROM "analytics_source" WHERE "policyId" IS NOT NULL GROUP BY "organizationId", "policyId", day`,
    );
  });

  for (const [table, trigger] of [
    ["payment", "payment_analytics"],
    ["ledger_transaction", "ledger_analytics"],
    ["coverage", "coverage_analytics"],
    ["claim", "claim_analytics"],
  ]) {
    await q(`ALTER TABLE ${table} ENABLE TRIGGER ${trigger}`);
  }

  await step("VACUUM ANALYZE", () => q("VACUUM ANALYZE"));

  const counts = await q(
    `SELECT (SELECT count(*) FROM payment)::int AS payments, (SELECT count(*) FROM ledger_transaction)::int AS ledger,
       (SELECT count(*) FROM coverage)::int AS coverages, (SELECT count(*) FROM claim)::int AS claims,
       (SELECT count(*) FROM api_usage)::int AS "apiUsage", (SELECT count(*) FROM api_usage_hourly)::int AS "apiUsageHourly", (SELECT count(*) FROM daily_stats)::int AS "dailyStats",
       (SELECT count(*) FROM policy_daily_stats)::int AS "policyDailyStats",
       pg_size_pretty(pg_database_size(current_database())) AS size`,
  );
  return counts.rows[0] as Record<string, number | string>;
}

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
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  log(`Creating ${dbName} on ${serverUrl.host}`);
  await admin.query(`CREATE DATABASE ${dbName}`);
  // The app (env.ts, db/client.ts) reads DATABASE_URL when first imported: only after this.
  process.env.DATABASE_URL = benchUrl;
  process.env.LOG_LEVEL ||= "warn";
  let disconnect: (() => Promise<void>) | undefined;
  try {
    const { applyMigrations } = await import("@/server/db/migrator");
    const { PrismaPg } = await import("@prisma/adapter-pg");
    await step("migrations", () => applyMigrations(new PrismaPg({ connectionString: benchUrl })));

    const client = new pg.Client({ connectionString: benchUrl });
    await client.connect();
    log("Seeding:");
    const counts = await seed(client).finally(() => client.end());
    log(`  rows: ${JSON.stringify(counts)}`);

    const db = await import("@/server/db/client");
    disconnect = db.disconnectDatabase;
    const analytics = await import("@/server/analytics/service");
    const { getPolicyAnalytics } = await import("@/server/policies/analytics");
    const actor = { organizationId: ORG, userId: USER, role: "OWNER" as const };
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
      ["getPolicyAnalytics (30 days)", () => getPolicyAnalytics(actor, "bench_pol_1", {})],
      ["getPolicyAnalytics (365 days)", () => getPolicyAnalytics(actor, "bench_pol_1", { ...year, granularity: "day" })],
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
          seed: { payments: PAYMENTS, policies: POLICIES, claims: CLAIMS, customers: CUSTOMERS, rows: counts },
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
    if (args.keep) log(`Kept the database: ${benchUrl}`);
    else {
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      log(`Dropped ${dbName}`);
    }
    await admin.end();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
