import type { Policy as PolicyRow, Prisma } from "@/generated/prisma/client";
import { minorOf, optionalMinorOf } from "@/server/money";
import { formatMinor } from "@/lib/money";
import { assertCan, type Actor } from "@/server/actor";
import { changed, changesOf } from "@/server/audit/diff";
import { audit } from "@/server/audit/record";
import { literal } from "@/server/like";
import { announcePrice } from "@/server/renewals/service";
import { db } from "@/server/db/client";
import { notFound } from "@/server/errors";
import { pageArgs, toPage, type Page } from "@/server/pagination";
import type { CreatePolicyInput, ListPoliciesQuery, Policy, UpdatePolicyInput } from "@/lib/schemas/policies";

function toPolicy(row: PolicyRow): Policy {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    description: row.description,
    duration: row.duration,
    price: formatMinor(row.priceMinor, row.currency),
    currency: row.currency,
    coverage: row.coverage,
    benefits: row.benefits,
    exclusions: row.exclusions,
    isActive: row.isActive,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listPolicies(actor: Actor, query: ListPoliciesQuery): Promise<Page<Policy>> {
  assertCan(actor, "read");
  const args = pageArgs(query);
  const where: Prisma.PolicyWhereInput = {
    organizationId: actor.organizationId,
    ...(query.isActive !== undefined ? { isActive: query.isActive } : {}),
    ...(query.type ? { type: query.type } : {}),
    ...(query.q ? { name: { contains: literal(query.q), mode: "insensitive" } } : {}),
    ...args.where,
  };
  const rows = await db.policy.findMany({ ...args, where });
  return toPage(rows, query, toPolicy);
}

/** The organization's policy row, or 404 (also for another organization's id). */
export async function findPolicy(actor: Actor, id: string): Promise<PolicyRow> {
  const row = await db.policy.findFirst({ where: { id, organizationId: actor.organizationId } });
  if (!row) throw notFound("Policy");
  return row;
}

export async function getPolicy(actor: Actor, id: string): Promise<Policy> {
  assertCan(actor, "read");
  return toPolicy(await findPolicy(actor, id));
}

export async function createPolicy(actor: Actor, input: CreatePolicyInput): Promise<Policy> {
  assertCan(actor, "manage");
  const org = await db.organization.findUniqueOrThrow({ where: { id: actor.organizationId }, select: { currency: true } });
  const row = await db.$transaction(async (tx) => {
    const created = await tx.policy.create({
      data: {
        organizationId: actor.organizationId,
        name: input.name,
        type: input.type,
        duration: input.duration,
        priceMinor: minorOf(input.price, org.currency, "price"),
        currency: org.currency,
        description: input.description || null,
        coverage: input.coverage || null,
        benefits: input.benefits ?? [],
        exclusions: input.exclusions ?? [],
      },
    });
    await audit(tx, actor.organizationId, {
      action: "policy.created",
      resourceType: "policy",
      resourceId: created.id,
      details: {
        name: created.name,
        type: created.type,
        duration: created.duration,
        price: formatMinor(created.priceMinor, created.currency),
        currency: created.currency,
      },
    });
    return created;
  });
  return toPolicy(row);
}

/** Changes the given fields; the others stay as they are. */
export async function updatePolicy(actor: Actor, id: string, input: UpdatePolicyInput): Promise<Policy> {
  assertCan(actor, "manage");
  const row = await findPolicy(actor, id);
  const priceMinor = optionalMinorOf(input.price, row.currency, "price");
  const updated = await db.$transaction(async (tx) => {
    const policy = await tx.policy.update({
      where: { id: row.id },
      data: {
        name: input.name,
        type: input.type,
        duration: input.duration,
        priceMinor,
        description: input.description === undefined ? undefined : input.description || null,
        coverage: input.coverage === undefined ? undefined : input.coverage || null,
        benefits: input.benefits,
        exclusions: input.exclusions,
      },
    });
    // Auto-renewing covers are told, and renew at the new price only from 14 days on (renewals/service.ts).
    if (priceMinor !== undefined && priceMinor !== row.priceMinor) await announcePrice(tx, policy, new Date());
    const fields = ["name", "type", "duration", "price", "description", "coverage", "benefits", "exclusions"] as const;
    const changes = changesOf(toPolicy(row), toPolicy(policy), fields);
    if (changed(changes))
      await audit(tx, actor.organizationId, {
        action: "policy.updated",
        resourceType: "policy",
        resourceId: row.id,
        details: { name: policy.name, ...changes },
      });
    return policy;
  });
  return toPolicy(updated);
}

export async function setPolicyStatus(actor: Actor, id: string, isActive: boolean): Promise<Policy> {
  assertCan(actor, "manage");
  const row = await findPolicy(actor, id);
  if (row.isActive === isActive) return toPolicy(row);
  const updated = await db.$transaction(async (tx) => {
    const policy = await tx.policy.update({ where: { id: row.id }, data: { isActive } });
    await audit(tx, actor.organizationId, {
      action: isActive ? "policy.activated" : "policy.deactivated",
      resourceType: "policy",
      resourceId: row.id,
      details: { name: row.name },
    });
    return policy;
  });
  return toPolicy(updated);
}

/**
 * DELETE is a soft delete: the policy stops being sold but stays readable and
 * listed, because payments, coverages and claims refer to it.
 */
export function deletePolicy(actor: Actor, id: string): Promise<Policy> {
  return setPolicyStatus(actor, id, false);
}
