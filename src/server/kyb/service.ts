// Know-your-business: a business submits its certificate of incorporation and
// tax certificate; a platform admin approves or rejects (with a reason); a
// rejected business resubmits. not_submitted → pending → approved | rejected,
// rejected → pending. Every move writes its event in the same transaction, and
// every decision is kept (who, when, what, why) in kyb_decision.
import type { KybDocument as KybDocumentRow, StoredFile } from "@/generated/prisma/client";
import { assertCan, isLive, type Actor } from "@/server/actor";
import { audit, currentAuditor, withAuditContext } from "@/server/audit/record";
import { db, type Tx } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { recordEvent } from "@/server/events/record";
import { fileUrl, withStoredFiles } from "@/server/files/service";
import { pageArgs, toPage, type Page, type PageQuery } from "@/server/pagination";
import type { Kyb, KybDocument, KybStatus, SubmitKybInput } from "@/lib/schemas/kyb";

export const toKybDocument = (row: KybDocumentRow & { file: StoredFile }): KybDocument => ({
  id: row.id,
  kind: row.kind,
  fileName: row.file.fileName,
  contentType: row.file.contentType as KybDocument["contentType"],
  size: row.file.size,
  url: fileUrl(row.file.id),
  createdAt: row.createdAt.toISOString(),
});

const currentDocuments = (organizationId: string, client: Tx | typeof db = db) =>
  client.kybDocument.findMany({
    where: { organizationId, supersededAt: null },
    // Both documents of a submission share its instant: list them in a fixed order (the enum's).
    orderBy: [{ kind: "asc" }],
    include: { file: true },
  });

/** The organization's KYB as the API shows it (no row yet = not_submitted). */
export async function kybOf(organizationId: string, client: Tx | typeof db = db): Promise<Kyb> {
  const [row, docs] = await Promise.all([
    client.kyb.findUnique({ where: { organizationId } }),
    currentDocuments(organizationId, client),
  ]);
  return {
    status: row?.status ?? "not_submitted",
    submittedAt: row?.submittedAt?.toISOString() ?? null,
    reviewedAt: row?.reviewedAt?.toISOString() ?? null,
    rejectionReason: row?.status === "rejected" ? (row.rejectionReason ?? null) : null,
    documents: docs.map(toKybDocument),
  };
}

export async function getKyb(actor: Actor): Promise<Kyb> {
  assertCan(actor, "read");
  return kybOf(actor.organizationId);
}

export async function listKybDocuments(actor: Actor, page: PageQuery): Promise<Page<KybDocument>> {
  assertCan(actor, "read");
  const args = pageArgs(page);
  const rows = await db.kybDocument.findMany({
    ...args,
    where: { organizationId: actor.organizationId, supersededAt: null, ...args.where },
    include: { file: true },
  });
  return toPage(rows, page, toKybDocument);
}

/** The status the organization must be in for this move, and the 409 otherwise. */
const REQUIRED: Record<"submit" | "resubmit", { from: KybStatus; refusal: (s: KybStatus) => string }> = {
  submit: {
    from: "not_submitted",
    refusal: (s) =>
      s === "rejected" ? "KYB was rejected: use resubmit with corrected documents" : `KYB is already ${s}: nothing to submit`,
  },
  resubmit: { from: "rejected", refusal: (s) => `Only a rejected KYB can be resubmitted; it is ${s.replace("_", " ")}` },
};

async function submission(actor: Actor, input: SubmitKybInput, move: "submit" | "resubmit"): Promise<Kyb> {
  assertCan(actor, "admin");
  const orgId = actor.organizationId;
  const rule = REQUIRED[move];
  // Fail fast before storing anything; the transaction re-checks under a row lock.
  const before = await db.kyb.findUnique({ where: { organizationId: orgId }, select: { status: true } });
  if ((before?.status ?? "not_submitted") !== rule.from)
    throw new AppError("invalid_state", rule.refusal(before?.status ?? "not_submitted"));

  return withStoredFiles(orgId, [input.certificateOfIncorporation, input.taxCertificate], async (tx, [incorporation, tax]) => {
    // Lock (or create) the organization's KYB row, so two submissions cannot both pass the check.
    await tx.$executeRaw`INSERT INTO kyb ("organizationId", status, "updatedAt") VALUES (${orgId}, 'not_submitted', now())
      ON CONFLICT ("organizationId") DO NOTHING`;
    const [locked] = await tx.$queryRaw<
      { status: KybStatus }[]
    >`SELECT status FROM kyb WHERE "organizationId" = ${orgId} FOR UPDATE`;
    if (locked?.status !== rule.from) throw new AppError("invalid_state", rule.refusal(locked?.status ?? "not_submitted"));
    const now = new Date();
    await tx.kybDocument.updateMany({ where: { organizationId: orgId, supersededAt: null }, data: { supersededAt: now } });
    await tx.kybDocument.createMany({
      data: [
        { organizationId: orgId, kind: "certificateOfIncorporation", fileId: incorporation!.id, createdAt: now },
        { organizationId: orgId, kind: "taxCertificate", fileId: tax!.id, createdAt: now },
      ],
    });
    // Test mode needs no review: any well-formed document is approved at once, so money out can be tried.
    const instant = !isLive(actor);
    await tx.kyb.update({
      where: { organizationId: orgId },
      data: instant
        ? { status: "approved", submittedAt: now, reviewedAt: now, rejectionReason: null }
        : { status: "pending", submittedAt: now, reviewedAt: null, rejectionReason: null },
    });
    const kyb = await kybOf(orgId, tx);
    await recordEvent(tx, orgId, "kyb.submitted", kyb);
    if (instant) await recordEvent(tx, orgId, "kyb.approved", kyb);
    await audit(tx, orgId, {
      action: "kyb.submitted",
      resourceType: "kyb",
      resourceId: orgId,
      details: {
        resubmission: move === "resubmit",
        from: rule.from,
        to: kyb.status,
        documents: kyb.documents.map((d) => ({ kind: d.kind, fileName: d.fileName })),
      },
    });
    return kyb;
  });
}

/** POST …/kyb/submit: the first submission (not_submitted → pending). */
export const submitKyb = (actor: Actor, input: SubmitKybInput) => submission(actor, input, "submit");

/** POST …/kyb/resubmit: corrected documents after a rejection (rejected → pending). */
export const resubmitKyb = (actor: Actor, input: SubmitKybInput) => submission(actor, input, "resubmit");

/** Throws 409 `kyb_not_approved` unless the organization's KYB is approved (money out needs it). */
export async function assertKybApproved(organizationId: string, client: Tx | typeof db = db): Promise<void> {
  const row = await client.kyb.findUnique({ where: { organizationId }, select: { status: true } });
  if (row?.status !== "approved") {
    throw new AppError(
      "kyb_not_approved",
      `KYB must be approved first; it is ${(row?.status ?? "not_submitted").replace("_", " ")}`,
    );
  }
}

// ——— Platform administration ———

/** Records a platform admin's decision on a pending KYB (409 unless pending). */
export async function decideKyb(
  reviewerId: string,
  organizationId: string,
  decision: { status: "approved" } | { status: "rejected"; reason: string },
): Promise<Kyb> {
  return db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<
      { status: KybStatus }[]
    >`SELECT status FROM kyb WHERE "organizationId" = ${organizationId} FOR UPDATE`;
    if (!locked) throw new AppError("not_found", "No KYB submission for this organization");
    if (locked.status !== "pending")
      throw new AppError("invalid_state", `Only a pending KYB can be decided; this one is ${locked.status.replace("_", " ")}`);
    const now = new Date();
    const reason = decision.status === "rejected" ? decision.reason : null;
    await tx.kyb.update({
      where: { organizationId },
      data: { status: decision.status, reviewedAt: now, rejectionReason: reason },
    });
    await tx.kybDecision.create({ data: { organizationId, reviewerId, decision: decision.status, reason, createdAt: now } });
    const kyb = await kybOf(organizationId, tx);
    await recordEvent(tx, organizationId, decision.status === "approved" ? "kyb.approved" : "kyb.rejected", kyb);
    // Written to the business's log, by the platform admin who decided (whatever the request's context says).
    const current = currentAuditor();
    const reviewer = await tx.user.findUnique({ where: { id: reviewerId }, select: { email: true } });
    const who =
      current.actorType === "user" && current.actorId === reviewerId
        ? current
        : { ...current, actorType: "user" as const, actorId: reviewerId, actorLabel: reviewer?.email ?? reviewerId };
    await withAuditContext(who, () =>
      audit(tx, organizationId, {
        action: decision.status === "approved" ? "kyb.approved" : "kyb.rejected",
        resourceType: "kyb",
        resourceId: organizationId,
        details: { from: "pending", to: decision.status, reason, reviewer: reviewer?.email ?? reviewerId },
      }),
    );
    return kyb;
  });
}
