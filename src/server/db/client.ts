// The one PrismaClient. The client itself is created at import (better-auth
// reads its data model at once), but the database behind it opens on the first
// query: `next build` imports route modules and must not open or lock anything.
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "@/generated/prisma/client";
import { env } from "@/server/env";
import { openEmbeddedDatabase, type EmbeddedDatabase } from "./embedded";

export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

interface Opened {
  factory: SqlMigrationAwareDriverAdapterFactory;
  embedded?: EmbeddedDatabase;
}

async function open(): Promise<Opened> {
  if (env.DATABASE_URL) {
    // An unreachable server fails the connection in 10 s rather than never.
    const factory = new PrismaPg({ connectionString: env.DATABASE_URL, max: 10, connectionTimeoutMillis: 10_000 });
    if (env.MIGRATE_ON_START) await migrate(factory);
    return { factory };
  }
  const embedded = await openEmbeddedDatabase(env.DATA_DIR);
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

interface State {
  prisma: PrismaClient;
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
    s.prisma = new PrismaClient({ adapter: new LazyAdapterFactory(opened) });
    g.__coverdeskDb = s;
  }
  return g.__coverdeskDb;
}

export const db: PrismaClient = state().prisma;

/** Opens the database (and applies migrations) now rather than on the first query. */
export async function connectDatabase(): Promise<void> {
  await db.$connect();
}

/** Closes the client and the embedded database, releasing its lock. */
export async function disconnectDatabase(): Promise<void> {
  const s = state();
  await s.prisma.$disconnect();
  const opened = await s.opened?.catch(() => undefined);
  await opened?.embedded?.close();
  s.opened = undefined;
}
