// The benchmarks' database: a fresh PostgreSQL database on DATABASE_URL's
// server, migrated, then seeded with INSERT … SELECT generate_series (never
// through the API, which would take hours for a million payments).
//
// - seedOrganizations: N organizations, each with its test twin, an owner
//   (user + member row), live read+write API keys whose secrets are made here
//   and stored hashed exactly as the app hashes them, and P policies.
// - seedHistory: one organization's money history — payments (~90 % paid,
//   each with its `payment` and `fee` ledger rows and a coverage created or
//   renewed; the rest failed or pending), its customers, claims in every
//   status, per-minute API usage and the daily rollups.
//
// Used by bench/run.ts (`npm run bench`) and bench/analytics.ts (`npm run bench:analytics`).
import { performance } from "node:perf_hooks";
import pg from "pg";
import { generateApiKey, hashApiKey, keyPrefix } from "@/server/api-keys/secret";

export type Log = (line: string) => void;

export interface BenchDatabase {
  name: string;
  /** postgres://…/<name> */
  url: string;
  /** DROP DATABASE … WITH (FORCE); safe to call twice. */
  drop(): Promise<void>;
}

/** Creates `<prefix>_<time>` on DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432). */
export async function createBenchDatabase(prefix = "coverdesk_bench"): Promise<BenchDatabase> {
  const server = new URL(process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres");
  const name = `${prefix}_${Date.now().toString(36)}_${process.pid}`;
  const adminUrl = Object.assign(new URL(server), { pathname: "/postgres" }).toString();
  const url = Object.assign(new URL(server), { pathname: `/${name}` }).toString();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  let dropped: Promise<void> | undefined;
  return {
    name,
    url,
    drop: () =>
      (dropped ??= (async () => {
        const c = new pg.Client({ connectionString: adminUrl });
        await c.connect();
        try {
          await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        } finally {
          await c.end();
        }
      })()),
  };
}

/** Applies the app's migrations (the same offline migrator as `npm run db:migrate` and the server's start). */
export async function migrate(url: string): Promise<string[]> {
  const { applyMigrations } = await import("@/server/db/migrator");
  const { PrismaPg } = await import("@prisma/adapter-pg");
  const { applied } = await applyMigrations(new PrismaPg({ connectionString: url }));
  return applied;
}

export async function step<T>(log: Log, label: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const out = await run();
  log(`  ${label.padEnd(58)} ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s`);
  return out;
}

// What the app stores: UTC wall-clock timestamps without a zone.
const NOW = "(now() AT TIME ZONE 'UTC')";

export const orgId = (n: number) => `bench_org_${n}`;
export const twinId = (n: number) => `bench_org_${n}_test`;
export const userId = (n: number) => `bench_user_${n}`;
export const policyId = (n: number, i: number) => `bench_o${n}_pol_${i}`;
/** Price of policy i, in minor units (the payments of seedHistory pay exactly this). */
const PRICE_SQL = (i: string) => `(5000 + (${i} * 7919) % 495001)`;

export interface SeededKey {
  id: string;
  /** the secret, cd_live_… */
  key: string;
}

export interface SeededOrganization {
  n: number;
  id: string;
  twinId: string;
  userId: string;
  keys: SeededKey[];
}

export interface OrganizationsOptions {
  orgs: number;
  policiesPerOrg: number;
  keysPerOrg?: number;
  /** requests per minute (organization.apiRateLimit) */
  rateLimit?: number;
  log?: Log;
}

export async function seedOrganizations(client: pg.Client, opts: OrganizationsOptions): Promise<SeededOrganization[]> {
  const log = opts.log ?? (() => {});
  const keysPerOrg = opts.keysPerOrg ?? 1;
  const q = (sql: string, params: unknown[] = []) => client.query(sql, params);
  await q("SET TimeZone = 'UTC'");
  const orgs: SeededOrganization[] = Array.from({ length: opts.orgs }, (_, i) => ({
    n: i + 1,
    id: orgId(i + 1),
    twinId: twinId(i + 1),
    userId: userId(i + 1),
    keys: Array.from({ length: keysPerOrg }, (_, k) => ({ id: `bench_key_${i + 1}_${k + 1}`, key: generateApiKey("live") })),
  }));

  await step(log, `${opts.orgs} organizations (+ test twins), owners, ${opts.orgs * keysPerOrg} API keys`, async () => {
    await q(
      `INSERT INTO "user" (id, name, email, "emailVerified", "updatedAt")
       SELECT 'bench_user_' || n, 'Bench Owner ' || n, 'owner' || n || '@bench.test', true, ${NOW}
       FROM generate_series(1, $1::int) n`,
      [opts.orgs],
    );
    await q(
      `INSERT INTO organization (id, name, email, "apiRateLimit", "createdAt", "updatedAt")
       SELECT 'bench_org_' || n, 'Bench Insurance ' || n || ' Ltd', 'ops' || n || '@bench.test', $2::int,
         ${NOW} - interval '401 days', ${NOW}
       FROM generate_series(1, $1::int) n`,
      [opts.orgs, opts.rateLimit ?? 600],
    );
    // The test twin every organization has since test mode (what ensureTestTwin would make).
    await q(
      `INSERT INTO organization (id, livemode, "liveOrganizationId", name, email, phone, address, currency, "createdAt", "updatedAt")
       SELECT o.id || '_test', false, o.id, o.name, o.email, o.phone, o.address, o.currency, o."createdAt", ${NOW}
       FROM organization o WHERE o.id LIKE 'bench\\_org\\_%' AND o.livemode`,
    );
    await q(
      `INSERT INTO member (id, "organizationId", "userId", role)
       SELECT 'bench_member_' || n, 'bench_org_' || n, 'bench_user_' || n, 'OWNER'
       FROM generate_series(1, $1::int) n`,
      [opts.orgs],
    );
    const keys = orgs.flatMap((o) => o.keys.map((k, i) => ({ org: o, key: k, i })));
    await q(
      `INSERT INTO api_key (id, "organizationId", "createdById", name, mode, permissions, prefix, "keyHash", "updatedAt")
       SELECT id, org, creator, name, 'live', ARRAY['read','write'], prefix, hash, ${NOW}
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS k(id, org, creator, name, prefix, hash)`,
      [
        keys.map((k) => k.key.id),
        keys.map((k) => k.org.id),
        keys.map((k) => k.org.userId),
        keys.map((k) => `Bench key ${k.i + 1}`),
        keys.map((k) => keyPrefix(k.key.key)),
        keys.map((k) => hashApiKey(k.key.key)),
      ],
    );
  });

  await step(log, `${(opts.orgs * opts.policiesPerOrg).toLocaleString("en")} policies`, () =>
    q(
      `INSERT INTO policy (id, "organizationId", name, type, duration, "priceMinor", currency, description, coverage,
         benefits, exclusions, "isActive", "createdAt", "updatedAt")
       SELECT 'bench_o' || n || '_pol_' || i, 'bench_org_' || n, 'Bench cover ' || i,
         (ARRAY['auto','home','health','life','travel','property','liability','business','other'])[1 + i % 9]::"PolicyType",
         (ARRAY['monthly','quarterly','yearly'])[1 + i % 3]::"PolicyDuration",
         ${PRICE_SQL("i")}, 'NGN',
         CASE WHEN i % 2 = 0 THEN 'Cover for small businesses, plan ' || i END,
         CASE WHEN i % 3 = 0 THEN 'Up to NGN ' || (i * 1000) END,
         ARRAY['Accident cover', 'Theft cover'], ARRAY['Wear and tear'], i % 20 <> 0,
         ${NOW} - interval '400 days' + i * interval '1 minute', ${NOW} - interval '400 days' + i * interval '1 minute'
       FROM generate_series(1, $1::int) n CROSS JOIN generate_series(1, $2::int) i`,
      [opts.orgs, opts.policiesPerOrg],
    ),
  );
  return orgs;
}

export interface HistoryOptions {
  /** the organization's number n (policies bench_o<n>_pol_1 … _<policies>) */
  n: number;
  policies: number;
  payments: number;
  claims: number;
  /** keys the per-minute API usage is spread over */
  apiKeyIds: string[];
  /** days of per-minute API usage (4 routes × every key × every minute) */
  usageDays?: number;
  log?: Log;
}

const ANALYTICS_TRIGGERS = [
  ["payment", "payment_analytics"],
  ["ledger_transaction", "ledger_analytics"],
  ["ledger_transaction", "ledger_daily"],
  ["coverage", "coverage_analytics"],
  ["coverage", "coverage_valid_daily"],
  ["claim", "claim_analytics"],
] as const;

/**
 * One organization's money history. The rollup triggers are disabled during
 * the bulk seed — firing them for millions of rows, each upserting the same
 * organization-day rows, takes far longer than the seed itself — and
 * daily_stats / policy_daily_stats are then filled with the migration's own
 * INSERT … SELECT from `analytics_source`, the view `npm run ledger:check`
 * compares the rollups with; the triggers are re-enabled at the end.
 */
export async function seedHistory(client: pg.Client, opts: HistoryOptions): Promise<void> {
  const log = opts.log ?? (() => {});
  const q = (sql: string, params: unknown[] = []) => client.query(sql, params);
  const org = orgId(opts.n);
  const pol = `bench_o${opts.n}_pol_`;
  const { policies: POLICIES, payments: PAYMENTS, claims: CLAIMS } = opts;
  /** Distinct customers: with PAYMENTS / CUSTOMERS ≈ 1.7 payments per (policy, customer), a third of the paid ones are renewals. */
  const CUSTOMERS = Math.max(1, Math.round(PAYMENTS * 0.6));
  const usageDays = opts.usageDays ?? 30;
  await q("SET TimeZone = 'UTC'");
  await q("SET statement_timeout = 0");
  await q("SELECT setseed(0.4217)");

  for (const [table, trigger] of ANALYTICS_TRIGGERS) await q(`ALTER TABLE ${table} DISABLE TRIGGER ${trigger}`);
  try {
    await step(log, `${PAYMENTS.toLocaleString("en")} payments (90 % success, 7 % failed, 3 % pending)`, () =>
      q(
        `INSERT INTO payment (id, "organizationId", "policyId", reference, email, "amountMinor", currency, status, provider,
           "authorizationUrl", "paidAt", "failureReason", "feeMinor", "createdAt", "updatedAt")
         SELECT 'bench_pay_' || g, $1, $5 || (1 + g % $3::int), 'bench_ref_' || g,
           'customer' || (g % $4::int) || '@bench.test', ${PRICE_SQL("(1 + g % $3::int)")}, 'NGN',
           status::"PaymentStatus", 'sandbox', '',
           CASE WHEN status = 'success' THEN created + interval '1 minute' END,
           CASE WHEN status = 'failed' THEN 'Card declined' END,
           CASE WHEN status = 'success' THEN (${PRICE_SQL("(1 + g % $3::int)")} * 150 + 5000) / 10000 END,
           created, created + interval '1 minute'
         FROM (
           SELECT g, ${NOW} - interval '2 minutes' - random() * interval '365 days' AS created,
             CASE WHEN r < 0.90 THEN 'success' WHEN r < 0.97 THEN 'failed' ELSE 'pending' END AS status
           FROM (SELECT g, random() AS r FROM generate_series(1, $2::int) g) x
         ) s`,
        [org, PAYMENTS, POLICIES, CUSTOMERS, pol],
      ),
    );

    await step(log, "ledger: a payment and a fee row per paid payment", () =>
      q(
        `INSERT INTO ledger_transaction (id, "organizationId", type, "amountMinor", currency, reference, description, "policyId", "createdAt")
         SELECT 'bench_led_' || e.kind || '_' || p.id, p."organizationId", e.kind::"LedgerType",
           CASE WHEN e.kind = 'payment' THEN p."amountMinor" ELSE -((p."amountMinor" * 150 + 5000) / 10000) END,
           p.currency, p.reference, CASE WHEN e.kind = 'payment' THEN 'Payment ' ELSE 'Platform fee (1.5%) ' END || p.reference,
           p."policyId", p."paidAt"
         FROM payment p CROSS JOIN (VALUES ('payment'), ('fee')) e(kind)
         WHERE p."organizationId" = $1 AND p.status = 'success'`,
        [org],
      ),
    );

    await step(log, "coverages: one per (policy, customer), renewed by later payments", () =>
      q(
        `INSERT INTO coverage (id, "organizationId", "policyId", "customerEmail", "startsAt", "periodStartsAt", "endsAt", "renewalCount", "createdAt", "updatedAt")
         SELECT 'bench_cov_' || $2::text || '_' || row_number() OVER (), $1, p."policyId", p.email, min(p."paidAt"),
           min(p."paidAt") + (count(*) - 1) * CASE pol.duration WHEN 'monthly' THEN interval '1 month'
             WHEN 'quarterly' THEN interval '3 months' ELSE interval '1 year' END,
           min(p."paidAt") + count(*) * CASE pol.duration WHEN 'monthly' THEN interval '1 month'
             WHEN 'quarterly' THEN interval '3 months' ELSE interval '1 year' END,
           count(*) - 1, min(p."paidAt"), max(p."paidAt")
         FROM payment p JOIN policy pol ON pol.id = p."policyId"
         WHERE p."organizationId" = $1 AND p.status = 'success'
         GROUP BY p."policyId", p.email, pol.duration`,
        [org, opts.n],
      ),
    );

    // What the dashboard_depth migration backfills: one customer per email that has paid, with running totals.
    await step(log, "customers: one per paying email", () =>
      q(
        `INSERT INTO customer (id, "organizationId", email, "paymentsCount", "totalPaidMinor", "lastPaidAt", "createdAt", "updatedAt")
         SELECT 'bench_cus_' || $2::text || '_' || row_number() OVER (), "organizationId", email, count(*)::int, sum("amountMinor"),
           max("paidAt"), min("paidAt"), ${NOW}
         FROM payment WHERE "organizationId" = $1 AND status = 'success'
         GROUP BY "organizationId", email`,
        [org, opts.n],
      ),
    );

    // The events API's last 30 days (GET /events): as many events as payments, all already fanned out (the job runner
    // has nothing to do with them), of the public types and a few internal ones the API must skip.
    await step(log, `${PAYMENTS.toLocaleString("en")} events over the last 30 days (GET /events)`, () =>
      q(
        `INSERT INTO event (id, "organizationId", type, data, subject, "createdAt", "dispatchedAt")
         SELECT 'evt_bench_' || $2::text || '_' || g, $1, t.type,
           jsonb_build_object('reference', 'bench_ref_' || g, 'amount', 1000 + g % 500000, 'currency', 'NGN'),
           'bench_ref_' || g, created, created
         FROM (SELECT g, ${NOW} - interval '1 minute' - random() * interval '29 days' AS created FROM generate_series(1, $3::int) g) s
         CROSS JOIN LATERAL (SELECT (ARRAY['payment.completed','payment.completed','policy.purchased','policy.renewed',
           'payment.failed','claim.submitted','claim.updated','coverage.expired','withdrawal.paid'])[1 + g % 9] AS type) t`,
        [org, opts.n, PAYMENTS],
      ),
    );

    await step(log, `${CLAIMS.toLocaleString("en")} claims in every status`, () =>
      q(
        `INSERT INTO claim (id, "organizationId", "policyId", type, description, "amountMinor", currency, status, "createdAt", "updatedAt")
         SELECT 'bench_clm_' || $5::text || '_' || g, $1, $4 || (1 + (g * 37) % $3::int),
           (ARRAY['accident','theft','fire','flood','medical','liability','other'])[1 + g % 7]::"ClaimType",
           'Bench claim ' || g, 1000 + (g * 131) % 500000, 'NGN',
           (ARRAY['submitted','submitted','submitted','submitted','under_review','under_review','approved','approved','rejected','paid'])[1 + g % 10]::"ClaimStatus",
           created, created
         FROM (SELECT g, ${NOW} - random() * interval '365 days' AS created FROM generate_series(1, $2::int) g) s`,
        [org, CLAIMS, POLICIES, pol, opts.n],
      ),
    );

    await step(log, `api_usage: ${usageDays} days × every minute × ${opts.apiKeyIds.length} key(s) × 4 routes`, () =>
      q(
        `INSERT INTO api_usage ("organizationId", "apiKeyId", minute, method, route, requests, errors, "serverErrors", "latencyMsSum", "latencyBuckets")
         SELECT $1, k, minute, method, route, req, req / 10, CASE WHEN h % 97 = 0 THEN 1 ELSE 0 END, req * 14.5,
           -- 24 latency buckets (bounds in src/server/analytics/metering.ts): most under 10 ms, a tail to 200 ms
           ARRAY[0, 0, 0, 0, 0, 0, req / 2, 0, req / 4, 0, req - req / 2 - req / 4 - 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]
         FROM (
           SELECT k, minute, method, route, abs(hashtext(k || route || minute::text)) AS h,
             4 + abs(hashtext(k || route || minute::text)) % 20 AS req
           FROM generate_series(date_trunc('minute', ${NOW}) - $3::int * interval '1 day', date_trunc('minute', ${NOW}), interval '1 minute') minute
           CROSS JOIN unnest($2::text[]) k
           CROSS JOIN (VALUES ('GET', '/business/policies'), ('GET', '/business/policies/{id}'),
             ('POST', '/payments/initialize'), ('GET', '/payments/verify/{reference}')) r(method, route)
         ) s`,
        [org, opts.apiKeyIds, usageDays],
      ),
    );

    // The hours of those minutes, as each flush writes them (the migration's backfill).
    await step(log, "api_usage_hourly from api_usage", () =>
      q(
        `INSERT INTO api_usage_hourly ("organizationId", "apiKeyId", hour, method, route, requests, errors, "serverErrors", "latencyMsSum", "latencyBuckets")
         SELECT "organizationId", "apiKeyId", date_trunc('hour', minute), method, route, sum(requests), sum(errors), sum("serverErrors"),
           sum("latencyMsSum"), ARRAY[${Array.from({ length: 24 }, (_, i) => `sum("latencyBuckets"[${i + 1}])`).join(", ")}]::int[]
         FROM api_usage WHERE "organizationId" = $1 GROUP BY 1, 2, 3, 4, 5`,
        [org],
      ),
    );

    await step(log, "daily_stats, policy_daily_stats, ledger_daily and coverage_valid_daily", async () => {
      await q(
        `INSERT INTO "daily_stats" ("organizationId", day, "paymentsCreated", "paymentsSucceeded", "paymentsFailed", "grossMinor",
           "feesMinor", "withdrawnMinor", "reversedMinor", purchases, renewals, "claimsFiled", "claimedMinor")
         SELECT "organizationId", day, sum("paymentsCreated"), sum("paymentsSucceeded"), sum("paymentsFailed"), sum("grossMinor"),
           sum("feesMinor"), sum("withdrawnMinor"), sum("reversedMinor"), sum(purchases), sum(renewals), sum("claimsFiled"), sum("claimedMinor")
         FROM "analytics_source" WHERE "organizationId" = $1 GROUP BY "organizationId", day`,
        [org],
      );
      await q(
        `INSERT INTO "policy_daily_stats" ("organizationId", "policyId", day, "paymentsCreated", "paymentsSucceeded", "paymentsFailed",
           "grossMinor", "feesMinor", purchases, renewals, "claimsFiled", "claimedMinor")
         SELECT "organizationId", "policyId", day, sum("paymentsCreated"), sum("paymentsSucceeded"), sum("paymentsFailed"),
           sum("grossMinor"), sum("feesMinor"), sum(purchases), sum(renewals), sum("claimsFiled"), sum("claimedMinor")
         FROM "analytics_source" WHERE "organizationId" = $1 AND "policyId" IS NOT NULL GROUP BY "organizationId", "policyId", day`,
        [org],
      );
      // The valid coverages by the day their cover ends, as the coverage_valid_daily migration fills them.
      await q(
        `INSERT INTO coverage_valid_daily ("organizationId", day, coverages)
         SELECT "organizationId", coverage_valid_until("cancelledAt", "endsAt", "graceEndsAt"), count(*)::int
         FROM coverage WHERE "organizationId" = $1 AND "cancelledAt" IS NULL GROUP BY 1, 2`,
        [org],
      );
      // The ledger's day sums, as the ledger_daily migration fills them.
      await q(
        `INSERT INTO ledger_daily ("organizationId", day, type, "amountMinor", entries)
         SELECT "organizationId", "createdAt"::date, type, sum("amountMinor"), count(*)::int
         FROM ledger_transaction WHERE "organizationId" = $1 GROUP BY 1, 2, 3`,
        [org],
      );
    });
  } finally {
    for (const [table, trigger] of ANALYTICS_TRIGGERS) await q(`ALTER TABLE ${table} ENABLE TRIGGER ${trigger}`);
  }
}

/** Row counts and size of the database, for the log and the results file. */
export async function countRows(client: pg.Client): Promise<Record<string, number | string>> {
  const r = await client.query(
    `SELECT (SELECT count(*) FROM organization)::int AS organizations, (SELECT count(*) FROM policy)::int AS policies,
       (SELECT count(*) FROM payment)::int AS payments, (SELECT count(*) FROM ledger_transaction)::int AS ledger,
       (SELECT count(*) FROM coverage)::int AS coverages, (SELECT count(*) FROM customer)::int AS customers,
       (SELECT count(*) FROM claim)::int AS claims, (SELECT count(*) FROM api_usage)::int AS "apiUsage",
       (SELECT count(*) FROM api_usage_hourly)::int AS "apiUsageHourly", (SELECT count(*) FROM daily_stats)::int AS "dailyStats",
       (SELECT count(*) FROM policy_daily_stats)::int AS "policyDailyStats",
       pg_size_pretty(pg_database_size(current_database())) AS size`,
  );
  return r.rows[0] as Record<string, number | string>;
}
