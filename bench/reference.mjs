// The REST read with nothing around it: bare node:http + pg, doing per request
// the same three SQL statements as the product's
// GET /api/v1/business/policies?limit=20 and answering the same JSON, so
// `npm run bench` can say how much of the product's time is the framework,
// the ORM and its own code rather than the database.
//
//   1. the key lookup by hash      — the SELECT of authenticateApiKey (src/server/api-keys/service.ts)
//   2. the rate-limit upsert       — databaseCounter (src/server/rest/rate-limit.ts)
//   3. the page                    — listPolicies (src/server/policies/service.ts) with pageArgs
//                                    (src/server/pagination.ts): every column, newest first, limit + 1
//
// And the write: POST /api/v1/claims with what the product's does in SQL —
// the key, the rate limit and the policy read as above, then one transaction:
// the claim, its first status change, its `claim.submitted` event (the outbox
// row the job runner delivers from) and its audit entry; the same tables and
// indexes (and triggers) as the product's, since it is the same database.
//
// Started by bench/run.ts: PORT, DATABASE_URL, POOL_SIZE (10, as the product's PrismaPg pool).
import crypto from "node:crypto";
import http from "node:http";
import pg from "pg";

// Row ids as the product makes them (src/server/ids.ts): cuid2's shape from a pooled random buffer.
const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
let idBytes = Buffer.alloc(0);
let idAt = 0;
function randomBelow(limit) {
  for (;;) {
    if (idAt >= idBytes.length) {
      idBytes = crypto.randomBytes(4096);
      idAt = 0;
    }
    const byte = idBytes[idAt++];
    if (byte < limit) return byte;
  }
}
function createId() {
  let id = ALPHABET[randomBelow(26 * 9) % 26];
  for (let i = 1; i < 24; i++) id += ALPHABET[randomBelow(36 * 7) % 36];
  return id;
}

const PORT = Number(process.env.PORT || 3601);
const POOL_SIZE = Number(process.env.POOL_SIZE || 10);
const WINDOW_S = 60;

// timestamp(3) without time zone holds UTC wall-clock time (as Prisma reads it).
pg.types.setTypeParser(1114, (s) => new Date(`${s.replace(" ", "T")}Z`));

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: POOL_SIZE, connectionTimeoutMillis: 10_000 });

const KEY_PATTERN = /^cd_(live|test)_[0-9A-Za-z]{32}$/;
const hashApiKey = (key) => crypto.createHash("sha256").update(key).digest("hex");
function sameHash(a, b) {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

function formatMinor(minor) {
  const negative = minor < 0n;
  const abs = negative ? -minor : minor;
  const text = `${abs / 100n}.${(abs % 100n).toString().padStart(2, "0")}`;
  return negative ? `-${text}` : text;
}

const encodeCursor = (row) => Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString("base64url");

function send(res, status, body, type = "application/json; charset=utf-8") {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": type, "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

function problem(res, status, code, title, detail) {
  send(
    res,
    status,
    { type: `https://coverdesk.dev/problems/${code}`, title, status, detail, code },
    "application/problem+json; charset=utf-8",
  );
}

const KEY_SQL = `
    SELECT k.id, k."organizationId", k.mode, t.id AS "testOrganizationId", k."createdById", m.role::text AS "creatorRole",
           k.permissions, k.status::text AS status, k."keyHash", k."lastUsedAt", o."apiRateLimit" AS "rateLimit"
    FROM api_key k
    JOIN organization o ON o.id = k."organizationId"
    LEFT JOIN organization t ON t."liveOrganizationId" = k."organizationId"
    LEFT JOIN member m ON m."organizationId" = k."organizationId" AND m."userId" = k."createdById"
    WHERE k."keyHash" = $1`;

const RATE_SQL = `
    INSERT INTO rate_limit_window ("organizationId", "windowStart", count)
    VALUES ($1, $2, $3)
    ON CONFLICT ("organizationId", "windowStart") DO UPDATE SET count = rate_limit_window.count + $3
    RETURNING count`;

const PAGE_SQL = `
    SELECT id, "organizationId", name, type::text AS type, description, duration::text AS duration, "priceMinor", currency,
           coverage, benefits, exclusions, "isActive", "createdAt", "updatedAt"
    FROM policy
    WHERE "organizationId" = $1
    ORDER BY "createdAt" DESC, id DESC
    LIMIT $2`;

/** The key and the rate limit (statements 1 and 2), or the refusal sent: the organization the request acts for. */
async function authenticate(req, res) {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
  if (!m) return problem(res, 401, "missing_api_key", "Unauthorized", "Send your API key as `Authorization: Bearer <key>`");
  if (!KEY_PATTERN.test(m[1])) return problem(res, 401, "invalid_api_key", "Unauthorized", "The API key is not valid");
  const hash = hashApiKey(m[1]);

  // 1. the key
  const { rows: keys } = await pool.query(KEY_SQL, [hash]);
  const key = keys[0];
  if (!key || !sameHash(key.keyHash, hash))
    return problem(res, 401, "invalid_api_key", "Unauthorized", "The API key is not valid");
  if (key.status !== "active") return problem(res, 401, "revoked_api_key", "Unauthorized", "The API key was revoked");
  if (!key.creatorRole) return problem(res, 403, "forbidden", "Forbidden", "The key's creator is no longer a member");
  const organizationId = key.mode === "test" ? key.testOrganizationId : key.organizationId;

  // 2. the rate limit, one window per organization and minute
  const now = Date.now() / 1000;
  const windowStart = Math.floor(now / WINDOW_S) * WINDOW_S;
  const { rows: counts } = await pool.query(RATE_SQL, [key.organizationId, new Date(windowStart * 1000), 1]);
  const count = Number(counts[0]?.count ?? 1);
  if (count > key.rateLimit) return problem(res, 429, "rate_limited", "Too Many Requests", "Over the limit");
  return { key, organizationId };
}

async function listPolicies(req, res, url) {
  const auth = await authenticate(req, res);
  if (!auth) return;
  const { organizationId } = auth;

  // 3. the page
  const limitText = url.searchParams.get("limit");
  const limit = limitText === null ? 20 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    return problem(res, 400, "invalid_query", "Bad Request", "limit: must be 1 to 100");
  }
  const { rows } = await pool.query(PAGE_SQL, [organizationId, limit + 1]);
  const more = rows.length > limit;
  const slice = more ? rows.slice(0, limit) : rows;
  const last = slice[slice.length - 1];
  send(res, 200, {
    data: slice.map((r) => ({
      id: r.id,
      name: r.name,
      type: r.type,
      description: r.description,
      duration: r.duration,
      price: formatMinor(BigInt(r.priceMinor)),
      currency: r.currency,
      coverage: r.coverage,
      benefits: r.benefits,
      exclusions: r.exclusions,
      isActive: r.isActive,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    })),
    nextCursor: more && last ? encodeCursor(last) : null,
  });
}

const CLAIM_TYPES = new Set(["accident", "theft", "fire", "flood", "medical", "liability", "other"]);

function readJson(req) {
  return new Promise((resolve, reject) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d) => {
      body += d;
      if (body.length > 1_000_000) reject(new Error("body too large"));
    });
    req.on("end", () => {
      try {
        resolve(JSON.parse(body));
      } catch {
        resolve(undefined);
      }
    });
    req.on("error", reject);
  });
}

async function postClaim(req, res) {
  const auth = await authenticate(req, res);
  if (!auth) return;
  const { key, organizationId } = auth;
  if (!key.permissions.includes("write")) return problem(res, 403, "insufficient_permissions", "Forbidden", "A read-only key");
  const input = await readJson(req);
  const amountMinor = typeof input?.amount === "number" ? Math.round(input.amount * 100) : NaN;
  if (
    typeof input?.policyId !== "string" ||
    !CLAIM_TYPES.has(input.type) ||
    typeof input.description !== "string" ||
    !input.description.trim() ||
    !Number.isSafeInteger(amountMinor) ||
    amountMinor <= 0
  ) {
    return problem(res, 422, "validation_failed", "Unprocessable Entity", "policyId, type, description and amount are required");
  }
  const email = typeof input.email === "string" ? input.email.trim().toLowerCase() : null;

  // 3. the policy, the organization's own
  const { rows: policies } = await pool.query(`SELECT id, currency FROM policy WHERE id = $1 AND "organizationId" = $2`, [
    input.policyId,
    organizationId,
  ]);
  const policy = policies[0];
  if (!policy) return problem(res, 404, "not_found", "Not Found", "Policy not found");

  // 4. one transaction: the claim, its first step, its event (the outbox row) and its audit entry
  const client = await pool.connect();
  let claim;
  try {
    await client.query("BEGIN");
    const coverageId = email
      ? ((
          await client.query(
            `SELECT id FROM coverage WHERE "organizationId" = $1 AND "policyId" = $2 AND "customerEmail" = $3 LIMIT 1`,
            [organizationId, policy.id, email],
          )
        ).rows[0]?.id ?? null)
      : null;
    const { rows } = await client.query(
      `INSERT INTO claim (id, "organizationId", "policyId", "coverageId", "customerEmail", type, description, "amountMinor", currency, "updatedAt")
       VALUES ($1, $2, $3, $4, $5, $6::"ClaimType", $7, $8, $9, now())
       RETURNING id, "policyId", "coverageId", type::text AS type, description, "amountMinor", currency, status::text AS status, "createdAt", "updatedAt"`,
      [createId(), organizationId, policy.id, coverageId, email, input.type, input.description, amountMinor, policy.currency],
    );
    const row = rows[0];
    await client.query(
      `INSERT INTO claim_status_change (id, "organizationId", "claimId", "toStatus", "apiKeyId") VALUES ($1, $2, $3, 'submitted', $4)`,
      [createId(), organizationId, row.id, key.id],
    );
    claim = {
      id: row.id,
      policyId: row.policyId,
      coverageId: row.coverageId,
      type: row.type,
      description: row.description,
      amount: formatMinor(BigInt(row.amountMinor)),
      approvedAmount: null,
      currency: row.currency,
      status: row.status,
      payoutAccount: null,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
    await client.query(
      `INSERT INTO event (id, "organizationId", type, data, subject) VALUES ($1, $2, 'claim.submitted', $3, $4)`,
      [
        `evt_${crypto.randomBytes(12).toString("base64url")}`,
        organizationId,
        JSON.stringify({ ...claim, attachments: [] }),
        row.id,
      ],
    );
    await client.query(
      `INSERT INTO audit_log (id, "organizationId", "actorType", "actorId", "actorLabel", action, "resourceType", "resourceId", details)
       VALUES ($1, $2, 'api_key', $3, $4, 'claim.created', 'claim', $5, $6)`,
      [
        createId(),
        organizationId,
        key.id,
        `API key ${key.id}`,
        row.id,
        JSON.stringify({
          policyId: row.policyId,
          coverageId,
          customerEmail: email,
          type: row.type,
          amount: claim.amount,
          currency: row.currency,
          attachments: 0,
          source: "api",
        }),
      ],
    );
    await client.query("COMMIT");
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    client.release();
  }
  send(res, 201, claim);
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://reference");
  const route =
    req.method === "GET" && url.pathname === "/api/v1/business/policies"
      ? listPolicies(req, res, url)
      : req.method === "POST" && url.pathname === "/api/v1/claims"
        ? postClaim(req, res)
        : req.method === "GET" && url.pathname === "/api/health"
          ? pool.query("SELECT 1").then(() => send(res, 200, { status: "ok" }))
          : Promise.resolve(
              problem(res, 404, "not_found", "Not Found", "Only GET /api/v1/business/policies and POST /api/v1/claims are here"),
            );
  route.catch((err) => {
    process.stderr.write(`${err?.stack ?? err}\n`);
    if (!res.headersSent) problem(res, 500, "internal_error", "Internal Server Error", "Something went wrong");
    else res.destroy();
  });
});
server.keepAliveTimeout = 65_000;

server.listen(PORT, "127.0.0.1", () => process.stdout.write(`reference listening on http://127.0.0.1:${PORT}\n`));

function stop() {
  server.close(() => pool.end().finally(() => process.exit(0)));
  server.closeAllConnections?.();
  setTimeout(() => process.exit(0), 5_000).unref();
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
