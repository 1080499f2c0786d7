import { audit } from "@/server/audit/record";
import type { ApiKey as ApiKeyRow } from "@/generated/prisma/client";
import type { Role } from "@/generated/prisma/enums";
import { db } from "@/server/db/client";
import { env } from "@/server/env";
import { accountOf, assertCan, isLive, type Actor, type KeyPermission } from "@/server/actor";
import { AppError, notFound } from "@/server/errors";
import { pageArgs, toPage, type Page, type PageQuery } from "@/server/pagination";
import type { ApiKey, ApiKeyWithSecret, CreateApiKeyInput, UpdateApiKeyInput } from "@/lib/schemas/api-keys";
import { ensureTestTwin } from "@/server/organizations/twin";
import { generateApiKey, hashApiKey, keyPrefix, looksLikeApiKey, sameHash, type KeyMode } from "./secret";

export function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    mode: row.mode as KeyMode,
    permissions: row.permissions as KeyPermission[],
    prefix: row.prefix,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

// `read` is implied by `write`; store them in one order.
const normalize = (p: KeyPermission[]) => (["read", "write"] as const).filter((x) => p.includes(x));

/**
 * The keys an actor may see and manage: an organization's keys of both modes
 * (they belong to the live organization, like the team) — except that a test
 * key reaches test keys only, so a leaked test key can never touch live ones.
 * This is the one exception to "a live key gets 404 on every test record": a
 * live key (and the dashboard, in either view) lists, renames, regenerates and
 * revokes the test keys too.
 */
const keysOf = (actor: Actor) => ({
  organizationId: accountOf(actor),
  ...(actor.apiKey && !isLive(actor) ? { mode: "test" } : {}),
});

/** Key metadata (never secrets): readable by any member and any key, like everything else. */
export async function listApiKeys(actor: Actor, page: PageQuery): Promise<Page<ApiKey>> {
  assertCan(actor, "read");
  const args = pageArgs(page);
  const rows = await db.apiKey.findMany({ ...args, where: { ...keysOf(actor), ...args.where } });
  return toPage(rows, page, toApiKey);
}

export async function createApiKey(actor: Actor, input: CreateApiKeyInput): Promise<ApiKeyWithSecret> {
  const mode: KeyMode = input.mode ?? "live";
  assertCan(actor, mode === "live" ? "account" : "admin");
  const key = generateApiKey(mode);
  const row = await db.$transaction(async (tx) => {
    const created = await tx.apiKey.create({
      data: {
        organizationId: accountOf(actor),
        createdById: actor.userId,
        name: input.name,
        mode,
        permissions: normalize(input.permissions),
        prefix: keyPrefix(key),
        keyHash: hashApiKey(key),
      },
    });
    await audit(tx, created.organizationId, {
      action: "api_key.created",
      resourceType: "api_key",
      resourceId: created.id,
      details: { name: created.name, mode, permissions: created.permissions, prefix: created.prefix },
    });
    return created;
  });
  return { ...toApiKey(row), key };
}

async function findKey(actor: Actor, id: string): Promise<ApiKeyRow> {
  const row = await db.apiKey.findFirst({ where: { id, ...keysOf(actor) } });
  if (!row) throw notFound("API key");
  return row;
}

/**
 * Why a conditional change of `row` changed nothing: it was revoked, or
 * another request changed it first (or moments before: regenerate).
 */
async function lostRace(actor: Actor, row: ApiKeyRow, what: "changed" | "regenerated"): Promise<AppError> {
  const now = await findKey(actor, row.id);
  if (now.status === "revoked") return new AppError("invalid_state", `A revoked key cannot be ${what}`);
  return new AppError(
    "conflict",
    what === "regenerated"
      ? `This key was regenerated moments ago by another request: list the keys to see it, and regenerate it again after ${REGENERATE_GAP_MS / 1000} seconds if you still need a new secret`
      : "This key was changed by another request at the same time: list the keys to see it, and retry",
  );
}

export async function updateApiKey(actor: Actor, id: string, input: UpdateApiKeyInput): Promise<ApiKey> {
  assertCan(actor, "admin");
  const row = await findKey(actor, id);
  if (row.mode === "live") assertCan(actor, "account");
  if (row.status === "revoked") throw new AppError("invalid_state", "A revoked key cannot be changed");
  // Only while it is still active: a revocation that got in first is not undone, nor answered as active.
  const updated = await db.$transaction(async (tx) => {
    const [changed] = await tx.apiKey.updateManyAndReturn({
      where: { id: row.id, status: "active" },
      data: { name: input.name, permissions: input.permissions ? normalize(input.permissions) : undefined },
    });
    if (changed)
      await audit(tx, changed.organizationId, {
        action: "api_key.updated",
        resourceType: "api_key",
        resourceId: changed.id,
        details: { before: { name: row.name, permissions: row.permissions }, after: { name: changed.name, permissions: changed.permissions } },
      });
    return changed;
  });
  if (!updated) throw await lostRace(actor, row, "changed");
  forgetApiKeys();
  return toApiKey(updated);
}

/** Revokes a key; revoking a revoked key (also one revoked at the same time) answers it unchanged. */
export async function revokeApiKey(actor: Actor, id: string): Promise<ApiKey> {
  assertCan(actor, "admin");
  const row = await findKey(actor, id);
  if (row.mode === "live") assertCan(actor, "account");
  if (row.status === "revoked") return toApiKey(row);
  const updated = await db.$transaction(async (tx) => {
    const [revoked] = await tx.apiKey.updateManyAndReturn({
      where: { id: row.id, status: "active" },
      data: { status: "revoked", revokedAt: new Date() },
    });
    if (revoked)
      await audit(tx, revoked.organizationId, {
        action: "api_key.revoked",
        resourceType: "api_key",
        resourceId: revoked.id,
        details: { name: revoked.name, prefix: revoked.prefix },
      });
    return revoked;
  });
  forgetApiKeys();
  return toApiKey(updated ?? (await findKey(actor, row.id)));
}

/**
 * How long after a change a key is not regenerated again. A burst of
 * regenerates (a retried or doubled request, several instances) must not hand
 * out secrets that the next one of the burst already replaced: the server may
 * well run them one after another (the embedded database always does), so
 * "at the same time" is judged by this gap, not by overlap alone.
 */
export const REGENERATE_GAP_MS = 2_000;

/**
 * A new secret for the same record; the old value stops working at once.
 * Of a burst of regenerates of one key exactly one wins and answers the new
 * value; the others change nothing and answer 409 `conflict`. The write is a
 * compare-and-set under the row's lock: only if the key still has the secret
 * this request read, and its secret was not replaced (`regeneratedAt`) within
 * REGENERATE_GAP_MS before this request began — a rename does not count.
 * Only a hash is stored, so the losers cannot be handed the winner's secret —
 * and a value that was never stored must never be answered.
 */
export async function regenerateApiKey(actor: Actor, id: string, begunAt = new Date()): Promise<ApiKeyWithSecret> {
  assertCan(actor, "admin");
  const row = await findKey(actor, id);
  if (row.mode === "live") assertCan(actor, "account");
  if (row.status === "revoked") throw new AppError("invalid_state", "A revoked key cannot be regenerated");
  const key = generateApiKey(row.mode as KeyMode);
  const updated = await db.$transaction(async (tx) => {
    const [regenerated] = await tx.apiKey.updateManyAndReturn({
      where: {
        id: row.id,
        keyHash: row.keyHash,
        status: "active",
        OR: [{ regeneratedAt: null }, { regeneratedAt: { lte: new Date(begunAt.getTime() - REGENERATE_GAP_MS) } }],
      },
      data: { keyHash: hashApiKey(key), prefix: keyPrefix(key), regeneratedAt: new Date() },
    });
    if (regenerated)
      await audit(tx, regenerated.organizationId, {
        action: "api_key.regenerated",
        resourceType: "api_key",
        resourceId: regenerated.id,
        details: { name: regenerated.name, oldPrefix: row.prefix, prefix: regenerated.prefix },
      });
    return regenerated;
  });
  if (!updated) throw await lostRace(actor, row, "regenerated");
  forgetApiKeys();
  return { ...toApiKey(updated), key };
}

export interface AuthenticatedKey {
  id: string;
  /** Whose data the key works on: its organization, or that organization's test twin for a test key. */
  organizationId: string;
  /** The (live) organization the key belongs to: its rate limit, team and settings. */
  accountId: string;
  mode: KeyMode;
  createdById: string;
  /** The creator's role in the key's organization now; null once they are no longer a member. */
  creatorRole: Role | null;
  permissions: KeyPermission[];
  /** The organization's requests-per-minute limit (settings `api.rateLimit`). */
  rateLimit: number;
}

interface KeyRow {
  id: string;
  organizationId: string;
  mode: string;
  testOrganizationId: string | null;
  createdById: string;
  creatorRole: Role | null;
  permissions: string[];
  status: string;
  keyHash: string;
  lastUsedAt: Date | null;
  rateLimit: number;
}

// What this instance read of each presented key (by hash), for API_KEY_CACHE_MS:
// an active key with its role and limit, or why it was refused. Anything that
// changes a key, a member or the rate limit here forgets it all at once
// (`forgetApiKeys`); a change made through another instance shows when the
// entry expires. Unknown hashes are remembered too (a secret is random: a key
// created later has a hash nobody presented), bounded so a flood of garbage
// keys cannot grow it without end.
interface CachedKey {
  until: number;
  key?: AuthenticatedKey;
  refused?: "invalid_api_key" | "revoked_api_key";
}
const MAX_CACHED_KEYS = 10_000;
const gk = globalThis as unknown as {
  __coverdeskKeyCache?: Map<string, CachedKey>;
  __coverdeskKeyCacheGeneration?: { n: number };
};
const keyCache = (gk.__coverdeskKeyCache ??= new Map());
// Bumped by every forget: a lookup that began before a change (and so may have
// read the key as it was) must not put what it read back after the change.
const generation = (gk.__coverdeskKeyCacheGeneration ??= { n: 0 });

/** Drops every cached key of this instance: call after a change to keys, members or the rate limit. */
export function forgetApiKeys(): void {
  generation.n += 1;
  keyCache.clear();
}

function remember(hash: string, entry: Omit<CachedKey, "until">, cacheMs: number, readAt: number) {
  if (cacheMs <= 0 || readAt !== generation.n) return;
  if (keyCache.size >= MAX_CACHED_KEYS) keyCache.delete(keyCache.keys().next().value!);
  keyCache.set(hash, { ...entry, until: Date.now() + cacheMs });
}

/** Checks a presented key (from this instance's cache when fresh). Throws 401 with the precise reason. */
export async function authenticateApiKey(presented: string, cacheMs = env.API_KEY_CACHE_MS): Promise<AuthenticatedKey> {
  if (!looksLikeApiKey(presented)) throw new AppError("invalid_api_key");
  const hash = hashApiKey(presented);
  const cached = keyCache.get(hash);
  if (cached && cached.until > Date.now()) {
    if (cached.refused) throw new AppError(cached.refused);
    touchLastUsed(cached.key!.id, null);
    return cached.key!;
  }
  const readAt = generation.n;
  const key = await lookUpApiKey(hash).catch((err: unknown) => {
    if (err instanceof AppError && (err.code === "invalid_api_key" || err.code === "revoked_api_key")) {
      remember(hash, { refused: err.code }, cacheMs, readAt);
    }
    throw err;
  });
  remember(hash, { key }, cacheMs, readAt);
  return key;
}

async function lookUpApiKey(hash: string): Promise<AuthenticatedKey> {
  // One statement: the key, its organization's rate limit and test twin, and its creator's current role there.
  const [row] = await db.$queryRaw<KeyRow[]>`
    SELECT k.id, k."organizationId", k.mode, t.id AS "testOrganizationId", k."createdById", m.role::text AS "creatorRole",
           k.permissions, k.status::text AS status, k."keyHash", k."lastUsedAt", o."apiRateLimit" AS "rateLimit"
    FROM api_key k
    JOIN organization o ON o.id = k."organizationId"
    LEFT JOIN organization t ON t."liveOrganizationId" = k."organizationId"
    LEFT JOIN member m ON m."organizationId" = k."organizationId" AND m."userId" = k."createdById"
    WHERE k."keyHash" = ${hash}`;
  if (!row || !sameHash(row.keyHash, hash)) throw new AppError("invalid_api_key");
  if (row.status !== "active") throw new AppError("revoked_api_key");
  touchLastUsed(row.id, row.lastUsedAt);
  const mode = row.mode === "test" ? "test" : "live";
  return {
    id: row.id,
    organizationId: mode === "live" ? row.organizationId : (row.testOrganizationId ?? (await ensureTestTwin(row.organizationId))),
    accountId: row.organizationId,
    mode,
    createdById: row.createdById,
    creatorRole: row.creatorRole,
    permissions: row.permissions as KeyPermission[],
    rateLimit: row.rateLimit,
  };
}

/**
 * The actor of a key on its own organization: its creator, with the creator's
 * current role there, so the key never does more than they may now. A key
 * whose creator is no longer a member acts as nobody (403 `forbidden`).
 */
export function keyActor(key: AuthenticatedKey): Actor {
  if (!key.creatorRole) {
    throw new AppError("forbidden", "The user who created this API key is no longer a member of its organization");
  }
  return {
    organizationId: key.organizationId,
    accountId: key.accountId,
    livemode: key.mode === "live",
    userId: key.createdById,
    role: key.creatorRole,
    apiKey: { id: key.id, permissions: key.permissions },
  };
}

// lastUsedAt is accurate to a minute: at most one write per key per minute,
// and none on the request's critical path.
const TOUCH_EVERY_MS = 60_000;
const touched = new Map<string, number>();

function touchLastUsed(id: string, lastUsedAt: Date | null) {
  const now = Date.now();
  if (lastUsedAt && now - lastUsedAt.getTime() < TOUCH_EVERY_MS) return;
  if (now - (touched.get(id) ?? 0) < TOUCH_EVERY_MS) return;
  touched.set(id, now);
  if (touched.size > 10_000) touched.clear();
  // Raw, so that updatedAt keeps meaning "the key itself changed", not "it was used".
  void db.$executeRaw`
    UPDATE api_key SET "lastUsedAt" = ${new Date(now)}
    WHERE id = ${id} AND ("lastUsedAt" IS NULL OR "lastUsedAt" < ${new Date(now - TOUCH_EVERY_MS)})`.catch(() =>
    touched.delete(id),
  );
}
