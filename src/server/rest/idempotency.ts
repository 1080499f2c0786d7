// Idempotency-Key on POST: the first answer (status + body) is kept for 24 h
// per (organization, key) and replayed; another body with the same key is a
// 422, a second request while the first runs is a 409.
//
// Exactly once, crash included (Stripe's "atomic phases"): the request runs in
// ONE database transaction that first takes the key's lock (a transaction-level
// advisory lock on PostgreSQL, held by the database for the connection that
// runs it), then the endpoint's work (every `db` call joins that transaction,
// see db/client.ts), then writes the answer under the key — and commits all of
// it together. So a change is never committed without its answer: a process
// killed before the commit leaves nothing behind (PostgreSQL rolls back the
// dead connection's transaction and frees its lock at once; embedded, the
// process is the database), and a retry runs once; killed after it, the retry
// replays. While the original runs, its lock makes a retry on any instance a
// 409 at once, however long it takes. A refusal (4xx) is stored and replayed
// like a success; a failure on our side (5xx) rolls everything back and stores
// nothing, so the client may retry it.
import crypto from "node:crypto";
import type { IdempotencyKey } from "@/generated/prisma/client";
import { db, runInTransaction, type Tx } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { seal, unseal } from "@/server/seal";

const TTL_MS = 24 * 60 * 60 * 1000;
/** The longest an idempotent request's transaction may stay open (a provider call included). */
export const REQUEST_TRANSACTION_MS = 30_000;

/** What a request answered: the status and the body text (a problem for a refusal). */
export interface Answer {
  status: number;
  body: string;
}
export type Outcome = Answer & { replayed: boolean };

// Stored responses can hold secrets shown once (a new API key): keep them sealed.
const PURPOSE = "idempotency-response";

export const requestHash = (method: string, path: string, rawBody: string) =>
  crypto.createHash("sha256").update(`${method} ${path}\n${rawBody}`).digest("hex");

const inProgress = () => new AppError("idempotency_in_progress", "A request with this Idempotency-Key is still being processed");

/** Keys running in this process: a second one is a 409 without waiting for the database. */
const running = new Set<string>();

/** A refusal that left the transaction unusable (a failed statement): stored apart, after the rollback. */
class StoreApart extends Error {
  constructor(readonly answer: Answer) {
    super("a refusal to store after the rollback");
  }
}

/**
 * Answers a POST carrying an Idempotency-Key: replays a stored answer, or runs
 * `run` once, in one transaction with the storing of its answer. `run` returns
 * the answer (a refusal as its problem body) or throws for a failure on our side.
 */
export async function runIdempotently(
  organizationId: string,
  key: string,
  hash: string,
  run: () => Promise<Answer>,
): Promise<Outcome> {
  const id = `${organizationId}\n${key}`;
  if (running.has(id)) throw inProgress();
  running.add(id);
  try {
    const where = { organizationId_key: { organizationId, key } };
    // A replay needs no transaction.
    const before = decide(await db.idempotencyKey.findUnique({ where }), hash);
    if (before) return before;
    try {
      return await runInTransaction(
        async (tx) => {
          if (!(await lockKey(tx, organizationId, key))) throw inProgress(); // running on another instance
          // Read again under the lock: the original may have committed meanwhile.
          const stored = decide(await tx.idempotencyKey.findUnique({ where }), hash);
          if (stored) return stored;
          const answer = await run();
          try {
            await complete(tx, organizationId, key, hash, answer);
          } catch (err) {
            if (answer.status < 500 && answer.status >= 400) throw new StoreApart(answer);
            throw err;
          }
          return { ...answer, replayed: false };
        },
        { timeout: REQUEST_TRANSACTION_MS },
      );
    } catch (err) {
      if (!(err instanceof StoreApart)) throw err;
      await complete(db, organizationId, key, hash, err.answer);
      return { ...err.answer, replayed: false };
    }
  } finally {
    running.delete(id);
  }
}

/** The stored answer to replay, a refusal (thrown), or null: run the request. */
function decide(row: IdempotencyKey | null, hash: string): Outcome | null {
  const now = new Date();
  if (!row || row.expiresAt <= now) return null;
  if (row.requestHash !== hash) {
    throw new AppError("idempotency_key_reused", "This Idempotency-Key was used with a different request");
  }
  if (row.state === "completed" && row.responseStatus !== null) {
    return {
      status: row.responseStatus,
      body: row.responseBody ? unseal(PURPOSE, row.responseBody) : "",
      replayed: true,
    };
  }
  // An `in_progress` row is only left by an earlier version, which claimed the
  // key before running (with a 60 s lease): it may still be running it until then.
  if (row.leaseUntil > now) throw inProgress();
  return null;
}

/**
 * Takes the key's lock for the rest of the transaction, or answers false at
 * once if another transaction (on any instance) holds it. The database frees
 * it when that transaction ends, a dead connection's included.
 */
async function lockKey(tx: Tx, organizationId: string, key: string): Promise<boolean> {
  const [row] = await tx.$queryRaw<{ locked: boolean }[]>`
    SELECT pg_try_advisory_xact_lock(hashtextextended(${`idempotency-key\n${organizationId}\n${key}`}, 0)) AS locked`;
  return row?.locked === true;
}

async function complete(client: Pick<Tx, "idempotencyKey">, organizationId: string, key: string, hash: string, answer: Answer) {
  const now = new Date();
  const data = {
    requestHash: hash,
    state: "completed",
    responseStatus: answer.status,
    responseBody: answer.body ? seal(PURPOSE, answer.body) : null,
    expiresAt: new Date(now.getTime() + TTL_MS),
    leaseUntil: now,
  };
  await client.idempotencyKey.upsert({
    where: { organizationId_key: { organizationId, key } },
    create: { organizationId, key, ...data },
    update: data,
  });
}
