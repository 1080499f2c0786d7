import type { Claim as ClaimRow, Prisma } from "@/generated/prisma/client";
import { minorOf, optionalMinorOf } from "@/server/money";
import { formatMinor } from "@/lib/money";
import { assertCan, type Actor } from "@/server/actor";
import { audit } from "@/server/audit/record";
import { db, type Tx } from "@/server/db/client";
import { AppError, notFound } from "@/server/errors";
import { recordEvent } from "@/server/events/record";
import { pageArgs, toPage, type Page } from "@/server/pagination";
import { literal } from "@/server/like";
import { findPolicy } from "@/server/policies/service";
import { toCoverage } from "@/server/coverages/service";
import type { UploadedFile } from "@/server/files/multipart";
import { withStoredFiles } from "@/server/files/service";
import {
  attachFilesToClaim,
  listClaimAttachments,
  MAX_CLAIM_ATTACHMENTS,
  toClaimAttachment,
  type ClaimAttachmentSource,
} from "./attachments";
import {
  CLAIM_MOVES,
  type Claim,
  type ClaimDetail,
  type ClaimRow as ClaimListRow,
  type SearchClaimsQuery,
  type ClaimWithHistory,
  type CreateClaimInput,
  type ListClaimsQuery,
  type SubmittedClaim,
  type UpdateClaimStatusInput,
} from "@/lib/schemas/claims";

export const toClaim = (row: ClaimRow): Claim => ({
  id: row.id,
  policyId: row.policyId,
  coverageId: row.coverageId,
  type: row.type,
  description: row.description,
  amount: formatMinor(row.amountMinor, row.currency),
  approvedAmount: row.approvedAmountMinor === null ? null : formatMinor(row.approvedAmountMinor, row.currency),
  currency: row.currency,
  status: row.status,
  payoutAccount:
    row.payoutBankCode && row.payoutAccountLast4 && row.payoutAccountAt
      ? {
          bankCode: row.payoutBankCode,
          bankName: row.payoutBankName ?? row.payoutBankCode,
          accountName: row.payoutAccountName ?? "",
          accountNumberLast4: row.payoutAccountLast4,
          givenAt: row.payoutAccountAt.toISOString(),
        }
      : null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const who = (actor: Actor) => ({ actorUserId: actor.apiKey ? null : actor.userId, apiKeyId: actor.apiKey?.id ?? null });

/** A new claim, whoever files it (staff, an API key, the policyholder on the portal). */
export interface ClaimFiling {
  policy: { id: string; currency: string };
  /** The coverage it is filed on: given (the portal), or the customer's coverage of the policy found by `customerEmail`. */
  coverageId?: string;
  customerEmail: string | null;
  type: ClaimRow["type"];
  description: string;
  amountMinor: bigint;
  /** Its first history step: who filed it, and how. */
  filedBy: { actorUserId?: string | null; apiKeyId?: string | null; note?: string | null };
  /** Where its evidence came from. */
  source: ClaimAttachmentSource;
}

export interface FiledClaim {
  row: ClaimRow;
  /** The `claim.submitted` event's data: the Claim and its attachments. */
  submitted: SubmittedClaim;
}

/**
 * THE way a claim is filed (REST JSON or multipart, the dashboard, the
 * portal): the evidence's bytes are stored first, then the claim, its first
 * history step, its attachments and its `claim.submitted` event — which lists
 * them — commit in one transaction. A refused file or any failure leaves
 * nothing: no claim, no file, no event.
 */
export async function fileClaim(organizationId: string, filing: ClaimFiling, uploads: UploadedFile[]): Promise<FiledClaim> {
  if (uploads.length > MAX_CLAIM_ATTACHMENTS) {
    const message = `Attach at most ${MAX_CLAIM_ATTACHMENTS} files`;
    throw new AppError("validation_failed", message, { errors: [{ path: "files", message }] });
  }
  return withStoredFiles(organizationId, uploads, async (tx, files) => {
    const coverageId =
      filing.coverageId ??
      (filing.customerEmail
        ? ((
            await tx.coverage.findFirst({
              where: { organizationId, policyId: filing.policy.id, customerEmail: filing.customerEmail },
              select: { id: true },
            })
          )?.id ?? null)
        : null);
    const row = await tx.claim.create({
      data: {
        organizationId,
        policyId: filing.policy.id,
        coverageId,
        customerEmail: filing.customerEmail,
        type: filing.type,
        description: filing.description,
        amountMinor: filing.amountMinor,
        currency: filing.policy.currency,
      },
    });
    // Its first step, written beside it (a nested create would read the claim back: a statement more per claim).
    await tx.claimStatusChange.createMany({
      data: {
        organizationId,
        claimId: row.id,
        toStatus: "submitted",
        actorUserId: filing.filedBy.actorUserId ?? null,
        apiKeyId: filing.filedBy.apiKeyId ?? null,
        note: filing.filedBy.note ?? null,
      },
    });
    const attachments = files.length ? await attachFilesToClaim(tx, organizationId, row.id, files, filing.source) : [];
    const submitted: SubmittedClaim = { ...toClaim(row), attachments: attachments.map(toClaimAttachment) };
    await recordEvent(tx, organizationId, "claim.submitted", submitted, row.id);
    await audit(tx, organizationId, {
      action: "claim.created",
      resourceType: "claim",
      resourceId: row.id,
      details: {
        policyId: row.policyId,
        coverageId: row.coverageId,
        customerEmail: row.customerEmail,
        type: row.type,
        amount: submitted.amount,
        currency: row.currency,
        attachments: attachments.length,
        source: filing.source,
      },
    });
    return { row, submitted };
  });
}

/**
 * Files a claim as staff or an API key, with its evidence (none for a JSON
 * body), through fileClaim: all of it or nothing. Answers the Claim.
 */
export async function submitClaim(
  actor: Actor,
  input: CreateClaimInput,
  uploads: UploadedFile[] = [],
  source: ClaimAttachmentSource = actor.apiKey ? "api" : "dashboard",
): Promise<Claim> {
  assertCan(actor, "manage");
  const policy = await findPolicy(actor, input.policyId);
  const { row } = await fileClaim(
    actor.organizationId,
    {
      policy,
      customerEmail: input.email ?? null,
      type: input.type,
      description: input.description,
      amountMinor: minorOf(input.amount, policy.currency, "amount"),
      filedBy: who(actor),
      source,
    },
    uploads,
  );
  return toClaim(row);
}

export async function listClaims(actor: Actor, query: ListClaimsQuery): Promise<Page<Claim>> {
  assertCan(actor, "read");
  const args = pageArgs(query);
  const where: Prisma.ClaimWhereInput = {
    organizationId: actor.organizationId,
    ...(query.status ? { status: query.status } : {}),
    ...(query.policyId ? { policyId: query.policyId } : {}),
    ...args.where,
  };
  const rows = await db.claim.findMany({ ...args, where });
  return toPage(rows, query, toClaim);
}

async function findClaim(actor: Actor, id: string): Promise<ClaimRow> {
  const row = await db.claim.findFirst({ where: { id, organizationId: actor.organizationId } });
  if (!row) throw notFound("Claim");
  return row;
}

export async function getClaim(actor: Actor, id: string): Promise<Claim> {
  assertCan(actor, "read");
  return toClaim(await findClaim(actor, id));
}

/** The claim with every step of its review, oldest first (dashboard). */
export async function getClaimWithHistory(actor: Actor, id: string): Promise<ClaimWithHistory> {
  assertCan(actor, "read");
  const row = await findClaim(actor, id);
  const steps = await db.claimStatusChange.findMany({
    where: { claimId: row.id },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: 100,
  });
  const userIds = [...new Set(steps.map((s) => s.actorUserId).filter((v): v is string => !!v))];
  const users = userIds.length
    ? await db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true } })
    : [];
  const names = new Map(users.map((u) => [u.id, u.name]));
  return {
    ...toClaim(row),
    history: steps.map((s) => ({
      id: s.id,
      fromStatus: s.fromStatus,
      toStatus: s.toStatus,
      note: s.note,
      by: s.actorUserId ? (names.get(s.actorUserId) ?? "A former member") : "API",
      createdAt: s.createdAt.toISOString(),
    })),
  };
}

/** Moves a claim along its review; any other move is a 409. */
export async function updateClaimStatus(actor: Actor, id: string, input: UpdateClaimStatusInput): Promise<Claim> {
  assertCan(actor, "manage");
  const found = await findClaim(actor, id);
  const approvedAmount = optionalMinorOf(input.approvedAmount, found.currency, "approvedAmount");
  return db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<
      { status: ClaimRow["status"]; amountMinor: bigint }[]
    >`SELECT status::text AS status, "amountMinor" FROM claim WHERE id = ${found.id} FOR UPDATE`;
    const from = row!.status;
    // Input judged against the claim (422) comes before its state (409).
    if (approvedAmount !== undefined && approvedAmount > row!.amountMinor) {
      const message = `Approve at most the amount claimed, ${formatMinor(row!.amountMinor, found.currency)}`;
      throw new AppError("validation_failed", `approvedAmount: ${message}`, { errors: [{ path: "approvedAmount", message }] });
    }
    if (!CLAIM_MOVES[from].includes(input.status)) {
      const allowed = CLAIM_MOVES[from];
      throw new AppError(
        "invalid_state",
        `A ${from.replace("_", " ")} claim cannot become ${input.status.replace("_", " ")}${allowed.length ? `; it can become ${allowed.join(" or ")}` : ""}`,
      );
    }
    if (input.status === "paid") {
      // Marked paid by hand only while no payout of it is under way (or paid).
      const active = await tx.claimPayout.count({
        where: { claimId: found.id, status: { in: ["pending", "processing", "paid"] } },
      });
      if (active > 0)
        throw new AppError("payout_exists", "A payout of this claim is under way: it becomes paid when the payout is");
    }
    const updated = await tx.claim.update({
      where: { id: found.id },
      data: {
        status: input.status,
        // An approval records what will be paid: the amount claimed unless the business said less.
        ...(input.status === "approved" ? { approvedAmountMinor: approvedAmount ?? row!.amountMinor } : {}),
        history: {
          create: {
            organizationId: actor.organizationId,
            fromStatus: from,
            toStatus: input.status,
            note: input.note || null,
            ...who(actor),
          },
        },
      },
    });
    const claim = toClaim(updated);
    await recordClaimMove(tx, actor.organizationId, claim, from);
    await audit(tx, actor.organizationId, {
      action: "claim.status_changed",
      resourceType: "claim",
      resourceId: claim.id,
      details: {
        from,
        to: claim.status,
        approvedAmount: claim.approvedAmount,
        currency: claim.currency,
        note: input.note || null,
      },
    });
    return claim;
  });
}

/**
 * The events of a claim's move, in the transaction that made it: `claim.updated`
 * (the Claim with `previousStatus`) for every move, and `claim.paid` when it
 * became paid (by a payout, or marked paid outside Coverdesk).
 */
export async function recordClaimMove(tx: Tx, organizationId: string, claim: Claim, previousStatus: ClaimRow["status"]) {
  await recordEvent(tx, organizationId, "claim.updated", { ...claim, previousStatus }, claim.id);
  if (claim.status === "paid") await recordEvent(tx, organizationId, "claim.paid", claim, claim.id);
}

// ---------- the dashboard's claims ----------

type RowWithPolicy = ClaimRow & { policy: { name: string } };
const toClaimRow = (row: RowWithPolicy): ClaimListRow => ({
  ...toClaim(row),
  policyName: row.policy.name,
  customerEmail: row.customerEmail,
});

export function claimWhere(organizationId: string, f: Omit<SearchClaimsQuery, "limit" | "cursor">): Prisma.ClaimWhereInput {
  const q = f.q?.trim();
  return {
    organizationId,
    ...(f.status ? { status: f.status } : {}),
    ...(f.type ? { type: f.type } : {}),
    ...(f.policyId ? { policyId: f.policyId } : {}),
    ...(q
      ? {
          OR: [
            { customerEmail: { contains: literal(q.toLowerCase()), mode: "insensitive" as const } },
            { description: { contains: literal(q), mode: "insensitive" as const } },
            { id: q },
          ],
        }
      : {}),
  };
}

export async function searchClaims(actor: Actor, query: SearchClaimsQuery): Promise<Page<ClaimListRow>> {
  assertCan(actor, "read");
  const args = pageArgs(query);
  const rows = await db.claim.findMany({
    ...args,
    where: { AND: [claimWhere(actor.organizationId, query), args.where] },
    include: { policy: { select: { name: true } } },
  });
  return toPage(rows, query, toClaimRow);
}

/** A claim's page: the review, the policy, the customer, their coverage and the evidence. */
export async function getClaimDetail(actor: Actor, id: string): Promise<ClaimDetail> {
  const claim = await getClaimWithHistory(actor, id);
  const row = await db.claim.findFirstOrThrow({
    where: { id: claim.id, organizationId: actor.organizationId },
    select: { customerEmail: true, policy: { select: { name: true } }, coverage: true },
  });
  const email = row.customerEmail ?? row.coverage?.customerEmail ?? null;
  const customer = email
    ? await db.customer.findUnique({
        where: { organizationId_email: { organizationId: actor.organizationId, email } },
        select: { id: true, name: true },
      })
    : null;
  const attachments = await listClaimAttachments(actor.organizationId, [claim.id]);
  return {
    ...claim,
    attachments: attachments.get(claim.id) ?? [],
    policyName: row.policy.name,
    customer: email ? { id: customer?.id ?? null, email, name: customer?.name ?? row.coverage?.customerName ?? null } : null,
    coverage: row.coverage ? toCoverage(row.coverage) : null,
  };
}
