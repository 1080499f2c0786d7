// The audit log: who changed what in an organization, written by the service
// in the SAME transaction as the change (a change that rolls back leaves no
// entry; an entry never exists without its change). Who, from where and in
// which request come from the request's audit context, set once by the
// operation pipeline (REST, tRPC, uploads) for the whole handler; without one
// (a job), the actor is the system. The table is append-only in the database
// itself (migration 20261127134848_audit_log). Secrets never go into `details`.
import { AsyncLocalStorage } from "node:async_hooks";
import { newId } from "@/server/ids";
import { Prisma } from "@/generated/prisma/client";
import type { Actor } from "@/server/actor";
import type { Tx } from "@/server/db/client";

export type AuditActorType = "user" | "api_key" | "policyholder" | "system";

export interface AuditWho {
  actorType: AuditActorType;
  actorId: string;
  actorLabel: string;
  ipAddress?: string | null;
  requestId?: string | null;
}

const context = new AsyncLocalStorage<AuditWho>();

/** Runs `fn` with `who` as the author of every entry it writes. */
export const withAuditContext = <T>(who: AuditWho, fn: () => Promise<T>): Promise<T> => context.run(who, fn);

/** Coverdesk itself: a job, a provider's report (a webhook), a settlement. */
export const SYSTEM_AUDITOR: AuditWho = { actorType: "system", actorId: "system", actorLabel: "Coverdesk" };

/** The author of entries written now. */
export const currentAuditor = (): AuditWho => context.getStore() ?? SYSTEM_AUDITOR;

/** Who an Actor is in the log: the key when a key acted (its creator is on the key), else the user. */
export function auditorOf(
  actor: Actor,
  labels: { userEmail?: string | null; keyName?: string | null; keyPrefix?: string | null },
  request: { ipAddress?: string | null; requestId?: string | null } = {},
): AuditWho {
  if (actor.apiKey) {
    const label = [labels.keyName, labels.keyPrefix ? `(${labels.keyPrefix}…)` : null].filter(Boolean).join(" ");
    return { actorType: "api_key", actorId: actor.apiKey.id, actorLabel: label || actor.apiKey.id, ...request };
  }
  return { actorType: "user", actorId: actor.userId, actorLabel: labels.userEmail ?? actor.userId, ...request };
}

export interface AuditEntry {
  /** `resource.verb`: api_key.created, member.role_changed, bank_account.added, … */
  action: string;
  resourceType: string;
  resourceId?: string | null;
  details?: Record<string, unknown>;
}

/** Writes one entry in the caller's transaction (the organization the change applies to: live or its test twin). */
export async function audit(tx: Tx, organizationId: string, entry: AuditEntry): Promise<void> {
  const who = currentAuditor();
  await tx.auditLog.create({
    data: {
      organizationId,
      actorType: who.actorType,
      actorId: who.actorId,
      actorLabel: who.actorLabel,
      action: entry.action,
      resourceType: entry.resourceType,
      resourceId: entry.resourceId ?? null,
      details: (entry.details ?? {}) as Prisma.InputJsonValue,
      ipAddress: who.ipAddress ?? null,
      requestId: who.requestId ?? null,
    },
  });
}

/**
 * Writes one entry authored by `who` whatever the request's context says (a
 * settlement is the system's even when a key's request set it off); the
 * request's id is kept, to trace what set it off.
 */
export async function auditAs(tx: Tx, organizationId: string, who: AuditWho, entry: AuditEntry): Promise<void> {
  const requestId = context.getStore()?.requestId ?? null;
  await context.run({ requestId, ...who }, () => audit(tx, organizationId, entry));
}

/** The system as the author of an entry written now, with the request's id when a request set it off. */
export const systemAuditor = (): AuditWho => ({ ...SYSTEM_AUDITOR, requestId: context.getStore()?.requestId ?? null });

/**
 * An entry as an INSERT statement, for a caller that writes it in one
 * statement with its change (`WITH … INSERT INTO audit_log …`): what `audit`
 * writes, authored by `who`, dated `at`. `details` may be an SQL expression
 * of that statement (a value only the statement knows).
 */
export function auditInsertSql(
  organizationId: string,
  who: AuditWho,
  entry: Omit<AuditEntry, "details"> & { details?: Record<string, unknown> | Prisma.Sql },
  at: Date,
): Prisma.Sql {
  const details = entry.details instanceof Prisma.Sql ? entry.details : Prisma.sql`${JSON.stringify(entry.details ?? {})}::jsonb`;
  return Prisma.sql`
    INSERT INTO audit_log (id, "organizationId", "actorType", "actorId", "actorLabel", action, "resourceType", "resourceId", details, "ipAddress", "requestId", "createdAt")
    VALUES (${newId()}, ${organizationId}, ${who.actorType}, ${who.actorId}, ${who.actorLabel}, ${entry.action}, ${entry.resourceType},
            ${entry.resourceId ?? null}, ${details}, ${who.ipAddress ?? null}, ${who.requestId ?? null}, ${at}::timestamp)`;
}

/** Writes one entry authored by the system (a job, a provider's report), in the caller's transaction. */
export const auditAsSystem = (tx: Tx, organizationId: string, entry: AuditEntry): Promise<void> =>
  auditAs(tx, organizationId, SYSTEM_AUDITOR, entry);

/**
 * The user `userId` as an author: the request's context when it is that user
 * (with its address), else the user by their email — for what a user does that
 * may run outside their request (the organization made at sign-up, a platform
 * admin's act).
 */
export async function userAuditor(tx: Tx, userId: string): Promise<AuditWho> {
  const current = context.getStore();
  if (current?.actorType === "user" && current.actorId === userId) return current;
  const user = await tx.user.findUnique({ where: { id: userId }, select: { email: true } });
  return { actorType: "user", actorId: userId, actorLabel: user?.email ?? userId, requestId: current?.requestId ?? null };
}
