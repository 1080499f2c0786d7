// Evidence on a claim: PDF, PNG or JPEG files attached by an API key, a member
// in the dashboard or the customer in the portal — at most five per claim.
// The files are stored by withStoredFiles (bytes first, rows in one
// transaction, bytes removed if it fails); attachFilesToClaim runs inside that
// transaction and holds the claim's row lock while it counts, so concurrent
// uploads to one claim never get past the limit.
import type { ClaimAttachment as ClaimAttachmentModel, StoredFile } from "@/generated/prisma/client";
import { MAX_CLAIM_ATTACHMENTS } from "@/lib/enums";
import { assertCan, type Actor } from "@/server/actor";
import { audit } from "@/server/audit/record";
import { db, type Tx } from "@/server/db/client";
import { AppError, notFound } from "@/server/errors";
import type { UploadedFile } from "@/server/files/multipart";
import { fileUrl, withStoredFiles } from "@/server/files/service";
import type { ClaimAttachment } from "@/lib/schemas/claims";

// Kept with the value lists so the dashboard can say it too.
export { MAX_CLAIM_ATTACHMENTS };

export type ClaimAttachmentSource = "api" | "dashboard" | "portal";
/** An attachment's row with its stored file. */
export type ClaimAttachmentRow = ClaimAttachmentModel & { file: StoredFile };

const limitReached = () => new AppError("attachment_limit", `A claim can have at most ${MAX_CLAIM_ATTACHMENTS} attachments`);

export const toClaimAttachment = (row: ClaimAttachmentRow): ClaimAttachment => ({
  id: row.id,
  claimId: row.claimId,
  fileName: row.file.fileName,
  contentType: row.file.contentType as ClaimAttachment["contentType"],
  size: row.file.size,
  url: fileUrl(row.file.id),
  createdAt: row.createdAt.toISOString(),
});

/**
 * Attaches stored files to the organization's claim, inside the caller's
 * transaction (e.g. withStoredFiles'): locks the claim row, counts what it
 * already has and refuses (409 attachment_limit) going over the limit, so the
 * caller's transaction — and the stored files with it — is rolled back.
 */
export async function attachFilesToClaim(
  tx: Tx,
  organizationId: string,
  claimId: string,
  files: StoredFile[],
  source: ClaimAttachmentSource,
): Promise<ClaimAttachmentRow[]> {
  const locked = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM claim WHERE id = ${claimId} AND "organizationId" = ${organizationId} FOR UPDATE`;
  if (locked.length === 0) throw notFound("Claim");
  const existing = await tx.claimAttachment.count({ where: { organizationId, claimId } });
  if (existing + files.length > MAX_CLAIM_ATTACHMENTS) throw limitReached();
  const rows: ClaimAttachmentRow[] = [];
  // A millisecond apart, in the order given: listed (createdAt, id) in upload order, even when the
  // inserts fall in one millisecond (their random ids would otherwise decide).
  const at = Date.now();
  for (const [i, file] of files.entries()) {
    if (file.organizationId !== organizationId) throw notFound("File");
    rows.push(
      await tx.claimAttachment.create({
        data: { organizationId, claimId, fileId: file.id, source, createdAt: new Date(at + i) },
        include: { file: true },
      }),
    );
  }
  return rows;
}

/** Stores the uploads and attaches them to the actor's claim (all or nothing). */
export async function addClaimAttachments(
  actor: Actor,
  claimId: string,
  uploads: UploadedFile[],
  source: ClaimAttachmentSource,
): Promise<ClaimAttachment[]> {
  assertCan(actor, "manage");
  // Answered before any byte is stored when it plainly cannot succeed; the locked check below decides.
  const claim = await db.claim.findFirst({
    where: { id: claimId, organizationId: actor.organizationId },
    select: { id: true, _count: { select: { attachments: true } } },
  });
  if (!claim) throw notFound("Claim");
  if (claim._count.attachments + uploads.length > MAX_CLAIM_ATTACHMENTS) throw limitReached();
  const rows = await withStoredFiles(actor.organizationId, uploads, async (tx, files) => {
    const attached = await attachFilesToClaim(tx, actor.organizationId, claim.id, files, source);
    await audit(tx, actor.organizationId, {
      action: "claim.attachments_added",
      resourceType: "claim",
      resourceId: claim.id,
      details: { files: attached.map((a) => ({ id: a.id, fileName: a.file.fileName, size: a.file.size })), source },
    });
    return attached;
  });
  return rows.map(toClaimAttachment);
}

/** The claims' attachments, oldest first, by claim id: every id given is a key (an empty list when it has none). One query. */
export async function listClaimAttachments(organizationId: string, claimIds: string[]): Promise<Map<string, ClaimAttachment[]>> {
  const out = new Map<string, ClaimAttachment[]>(claimIds.map((id) => [id, []]));
  if (claimIds.length === 0) return out;
  const rows = await db.claimAttachment.findMany({
    where: { organizationId, claimId: { in: [...new Set(claimIds)] } },
    include: { file: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  for (const row of rows) out.get(row.claimId)!.push(toClaimAttachment(row));
  return out;
}

/** One claim's attachments, oldest first (REST and the dashboard). */
export async function getClaimAttachments(actor: Actor, claimId: string): Promise<ClaimAttachment[]> {
  assertCan(actor, "read");
  const claim = await db.claim.findFirst({ where: { id: claimId, organizationId: actor.organizationId }, select: { id: true } });
  if (!claim) throw notFound("Claim");
  return (await listClaimAttachments(actor.organizationId, [claim.id])).get(claim.id) ?? [];
}
