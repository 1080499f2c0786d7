// The one PrismaClient. The client itself is created at import (better-auth
// reads its data model at once), but the database behind it opens on the first
// query: `next build` imports route modules and must not open or lock anything.
//
// `db` is that client seen through the request's transaction, if it has one:
// `runInTransaction(fn)` makes a transaction ambient for everything `fn` calls
// (AsyncLocalStorage), so a whole request — an idempotent POST and the storing
// of its answer — commits or rolls back as one. While it is open, model calls,
// `$queryRaw` and `$executeRaw` on `db` run in it, and a nested
// `db.$transaction(fn)` (or its array form) becomes a savepoint inside it, so
// a service refusing halfway undoes only its own part, as on its own. Once it
// has ended (a timer started by the request fires later), `db` is the plain
// client again. Services need not know: they keep calling `db`.
import { AsyncLocalStorage } from "node:async_hooks";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "@/generated/prisma/client";
import { env } from "@/server/env";
import { openEmbeddedDatabase, type EmbeddedDatabase } from "./embedded";

export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/**
 * Connections per instance (PostgreSQL). Two cores answer 400 simultaneous
 * requests faster through a few connections than through many: the rest wait.
 */
export const POOL_MAX = 10;
/**
 * How long a request may wait for a connection (or, embedded, for the
 * database) before it is shed with 503 `service_unavailable` + `Retry-After`.
 */
export const POOL_WAIT_MS = 10_000;
/** The longest a service's own transaction may stay open. */
export const TRANSACTION_TIMEOUT_MS = 15_000;

interface Opened {
  factory: SqlMigrationAwareDriverAdapterFactory;
  embedded?: EmbeddedDatabase;
}

async function open(): Promise<Opened> {
  if (env.DATABASE_URL) {
    // An unreachable server fails the connection in 10 s rather than never;
    // a request waits at most POOL_WAIT_MS for a free connection.
    const factory = new PrismaPg({
      connectionString: env.DATABASE_URL,
      max: POOL_MAX,
      connectionTimeoutMillis: POOL_WAIT_MS,
    });
    if (env.MIGRATE_ON_START) await migrate(factory);
    return { factory };
  }
  // EMBEDDED_SEED (tests only, see vitest.config.mts): an in-memory database
  // starts as a copy of this migrated dump. Ignored unless DATA_DIR is memory://.
  const embedded = await openEmbeddedDatabase(env.DATA_DIR, { seed: process.env.EMBEDDED_SEED || undefined });
  const factory = new PrismaPGlite(embedded.pglite);
  if (env.MIGRATE_ON_START) await migrate(factory);
  return { factory, embedded };
}

async function migrate(factory: SqlMigrationAwareDriverAdapterFactory) {
  const { applyMigrations } = await import("./migrator");
  await applyMigrations(factory);
}

class LazyAdapterFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = "postgres" as const;
  readonly adapterName = "coverdesk-lazy";
  constructor(private readonly opened: () => Promise<Opened>) {}
  async connect(): Promise<SqlDriverAdapter> {
    return (await this.opened()).factory.connect();
  }
  async connectToShadowDb(): Promise<SqlDriverAdapter> {
    return (await this.opened()).factory.connectToShadowDb();
  }
}

/** A transaction made ambient by runInTransaction. */
interface Ambient {
  tx: Tx;
  /** false once it has committed or rolled back: `db` is the plain client again. */
  open: boolean;
  savepoints: number;
  /** Nested transactions take turns (a savepoint is a stack, not a set). */
  turn: Promise<void>;
}
interface Scope {
  ambient: Ambient;
  /** Inside a nested transaction already: its own nested ones need no turn. */
  nested: boolean;
}

interface State {
  prisma: PrismaClient;
  db: PrismaClient;
  scope: AsyncLocalStorage<Scope>;
  opened?: Promise<Opened>;
}
const g = globalThis as unknown as { __coverdeskDb?: State };

function state(): State {
  if (!g.__coverdeskDb) {
    const s: State = {} as State;
    const opened = () =>
      (s.opened ??= open().catch((err) => {
        s.opened = undefined;
        throw err;
      }));
    s.prisma = new PrismaClient({
      adapter: new LazyAdapterFactory(opened),
      transactionOptions: { maxWait: POOL_WAIT_MS, timeout: TRANSACTION_TIMEOUT_MS },
    });
    s.scope = new AsyncLocalStorage<Scope>();
    s.db = ambientClient(s.prisma, s.scope);
    g.__coverdeskDb = s;
  }
  return g.__coverdeskDb;
}

/** The open ambient transaction of the current request, if any. */
function currentScope(scopes: AsyncLocalStorage<Scope>): Scope | undefined {
  const scope = scopes.getStore();
  return scope?.ambient.open ? scope : undefined;
}

// What stays on the root client even inside a request's transaction.
const ROOT_ONLY = new Set<PropertyKey>(["$connect", "$disconnect", "$on", "$extends", "$use"]);

type TxCallback = (tx: Tx) => Promise<unknown>;

function ambientClient(root: PrismaClient, scopes: AsyncLocalStorage<Scope>): PrismaClient {
  return new Proxy(root, {
    get(target, prop) {
      const scope = currentScope(scopes);
      if (scope && !ROOT_ONLY.has(prop)) {
        if (prop === "$transaction") {
          return (arg: TxCallback | Promise<unknown>[]) =>
            savepoint(scopes, scope, async (tx) => {
              if (typeof arg === "function") return arg(tx);
              // The array form: its queries were made on `db`, so on this transaction; run them in order.
              const results: unknown[] = [];
              for (const query of arg) results.push(await query);
              return results;
            });
        }
        const value: unknown = (scope.ambient.tx as unknown as Record<PropertyKey, unknown>)[prop];
        if (value !== undefined) return typeof value === "function" ? value.bind(scope.ambient.tx) : value;
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

async function savepoint<T>(scopes: AsyncLocalStorage<Scope>, scope: Scope, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const { ambient } = scope;
  const run = async () => {
    const name = `coverdesk_sp_${++ambient.savepoints}`;
    await ambient.tx.$executeRawUnsafe(`SAVEPOINT ${name}`);
    try {
      const result = await scopes.run({ ambient, nested: true }, () => fn(ambient.tx));
      await ambient.tx.$executeRawUnsafe(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (err) {
      // Undo this part only, as its own transaction would have been; the request's goes on.
      if (ambient.open) await ambient.tx.$executeRawUnsafe(`ROLLBACK TO SAVEPOINT ${name}`).catch(() => {});
      throw err;
    }
  };
  if (scope.nested) return run();
  const before = ambient.turn;
  let done!: () => void;
  ambient.turn = new Promise<void>((resolve) => (done = resolve));
  await before;
  try {
    return await run();
  } finally {
    done();
  }
}

/**
 * Runs `fn` in one transaction that every use of `db` inside it joins (see
 * the top of this file). Inside another one, it is a savepoint of that one.
 */
export async function runInTransaction<T>(
  fn: (tx: Tx) => Promise<T>,
  options?: { maxWait?: number; timeout?: number },
): Promise<T> {
  const s = state();
  const scope = currentScope(s.scope);
  if (scope) return savepoint(s.scope, scope, fn);
  return s.prisma.$transaction(async (tx) => {
    const ambient: Ambient = { tx, open: true, savepoints: 0, turn: Promise.resolve() };
    try {
      return await s.scope.run({ ambient, nested: false }, () => fn(tx));
    } finally {
      ambient.open = false;
    }
  }, options);
}

export const db: PrismaClient = state().db;

/** Opens the database (and applies migrations) now rather than on the first query. */
export async function connectDatabase(): Promise<void> {
  await state().prisma.$connect();
}

/** Closes the client and the embedded database, releasing its lock. */
export async function disconnectDatabase(): Promise<void> {
  const s = state();
  await s.prisma.$disconnect();
  const opened = await s.opened?.catch(() => undefined);
  await opened?.embedded?.close();
  s.opened = undefined;
}
