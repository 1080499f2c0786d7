import { newId } from "@/server/ids";
import { Prisma, type Claim as ClaimRow, type StoredFile } from "@/generated/prisma/client";
import { minorOf, optionalMinorOf } from "@/server/money";
import { formatMinor } from "@/lib/money";
import { assertCan, type Actor } from "@/server/actor";
import { audit, auditInsertSql, currentAuditor } from "@/server/audit/record";
import { db, type Tx } from "@/server/db/client";
import { AppError, notFound } from "@/server/errors";
import { eventsInsertSql, recordEvent } from "@/server/events/record";
import { pageArgs, toPage, type Page } from "@/server/pagination";
import { literal } from "@/server/like";
import { findPolicy } from "@/server/policies/service";
import { toCoverage } from "@/server/coverages/service";
import type { UploadedFile } from "@/server/files/multipart";
import { withStoredFiles } from "@/server/files/service";
import { listClaimAttachments, MAX_CLAIM_ATTACHMENTS, toClaimAttachment, type ClaimAttachmentSource } from "./attachments";
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
 * history step, its attachments, its `claim.submitted` event — which lists
 * them — and its audit entry are written by ONE statement (insertFiledClaim).
 * Without evidence that statement is the whole write, atomic by itself (no
 * transaction to open: one round trip); with evidence it runs in
 * withStoredFiles' transaction, after the files' rows. A refused file or any
 * failure leaves nothing: no claim, no file, no event.
 */
export async function fileClaim(organizationId: string, filing: ClaimFiling, uploads: UploadedFile[]): Promise<FiledClaim> {
  if (uploads.length > MAX_CLAIM_ATTACHMENTS) {
    const message = `Attach at most ${MAX_CLAIM_ATTACHMENTS} files`;
    throw new AppError("validation_failed", message, { errors: [{ path: "files", message }] });
  }
  if (uploads.length === 0) return insertFiledClaim(db, organizationId, filing, []);
  return withStoredFiles(organizationId, uploads, (tx, files) => insertFiledClaim(tx, organizationId, filing, files));
}

/**
 * The claim, its first step, its attachments (files already stored in this
 * organization, as withStoredFiles makes them), its event and its audit entry
 * in one INSERT … WITH statement. The coverage, when not given, is looked up
 * in the same statement (the customer's coverage of the policy), and the
 * event's and the entry's `coverageId` are filled from it there. Ids and
 * times are made here, so the answer is known without reading anything back.
 */
async function insertFiledClaim(
  client: Pick<Tx, "$queryRaw">,
  organizationId: string,
  filing: ClaimFiling,
  files: StoredFile[],
): Promise<FiledClaim> {
  const now = new Date();
  const row: ClaimRow = {
    id: newId(),
    organizationId,
    policyId: filing.policy.id,
    coverageId: filing.coverageId ?? null,
    type: filing.type,
    description: filing.description,
    amountMinor: filing.amountMinor,
    currency: filing.policy.currency,
    customerEmail: filing.customerEmail,
    approvedAmountMinor: null,
    status: "submitted",
    payoutBankCode: null,
    payoutBankName: null,
    payoutAccountName: null,
    payoutAccountSealed: null,
    payoutAccountLast4: null,
    payoutAccountAt: null,
    createdAt: now,
    updatedAt: now,
  };
  // A millisecond apart, in upload order: listed (createdAt, id) as uploaded.
  const attachments = files.map((file, i) => {
    if (file.organizationId !== organizationId) throw notFound("File");
    return {
      id: newId(),
      organizationId,
      claimId: row.id,
      fileId: file.id,
      source: filing.source,
      createdAt: new Date(now.getTime() + i),
      file,
    };
  });
  const submitted: SubmittedClaim = { ...toClaim(row), attachments: attachments.map(toClaimAttachment) };
  const details = {
    policyId: row.policyId,
    coverageId: row.coverageId,
    customerEmail: row.customerEmail,
    type: row.type,
    amount: submitted.amount,
    currency: row.currency,
    attachments: attachments.length,
    source: filing.source,
  };
  const coverage = filing.coverageId
    ? Prisma.sql`SELECT ${filing.coverageId}::text AS id`
    : filing.customerEmail
      ? Prisma.sql`SELECT id FROM coverage
          WHERE "organizationId" = ${organizationId} AND "policyId" = ${row.policyId} AND "customerEmail" = ${filing.customerEmail}
          LIMIT 1`
      : Prisma.sql`SELECT NULL::text AS id`;
  const withCoverage = (json: object) =>
    Prisma.sql`jsonb_set(${JSON.stringify(json)}::jsonb, '{coverageId}', COALESCE(to_jsonb((SELECT "coverageId" FROM c)), 'null'::jsonb))`;
  const events = eventsInsertSql(
    organizationId,
    [{ type: "claim.submitted", data: withCoverage(submitted), subject: row.id }],
    now,
  );
  const entry = auditInsertSql(
    organizationId,
    currentAuditor(),
    { action: "claim.created", resourceType: "claim", resourceId: row.id, details: withCoverage(details) },
    now,
  );
  const attached = attachments.length
    ? Prisma.sql`, a AS (
        INSERT INTO claim_attachment (id, "organizationId", "claimId", "fileId", source, "createdAt")
        SELECT v.id, v.org, c.id, v.file, v.source, v.at
        FROM c, (VALUES ${Prisma.join(
          attachments.map((a) => Prisma.sql`(${a.id}, ${organizationId}, ${a.fileId}, ${a.source}, ${a.createdAt}::timestamp)`),
        )}) AS v(id, org, file, source, at)
      )`
    : Prisma.empty;
  const [written] = await client.$queryRaw<{ coverageId: string | null }[]>`
    WITH cov AS (${coverage}),
    c AS (
      INSERT INTO claim (id, "organizationId", "policyId", "coverageId", "customerEmail", type, description, "amountMinor", currency, status, "createdAt", "updatedAt")
      VALUES (${row.id}, ${organizationId}, ${row.policyId}, (SELECT id FROM cov), ${row.customerEmail}, ${row.type}::"ClaimType",
              ${row.description}, ${row.amountMinor}, ${row.currency}, 'submitted', ${now}::timestamp, ${now}::timestamp)
      RETURNING id, "coverageId"
    ),
    s AS (
      INSERT INTO claim_status_change (id, "organizationId", "claimId", "toStatus", note, "actorUserId", "apiKeyId", "createdAt")
      SELECT ${newId()}, ${organizationId}, c.id, 'submitted', ${filing.filedBy.note ?? null}, ${filing.filedBy.actorUserId ?? null},
             ${filing.filedBy.apiKeyId ?? null}, ${now}::timestamp
      FROM c
    )${attached},
    e AS (${events.sql}),
    l AS (${entry})
    SELECT "coverageId" FROM c`;
  row.coverageId = written?.coverageId ?? null;
  submitted.coverageId = row.coverageId;
  return { row, submitted };
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
