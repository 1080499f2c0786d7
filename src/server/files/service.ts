// Files of an organization: stored with the rows that own them (bytes first,
// rows in one transaction, bytes removed again if the transaction fails), and
// opened only for the owning organization — another organization's file id is
// simply not found.
import { newId } from "@/server/ids";
import type { StoredFile } from "@/generated/prisma/client";
import { db, type Tx } from "@/server/db/client";
import { env } from "@/server/env";
import { notFound } from "@/server/errors";
import { logger } from "@/server/logger";
import type { UploadedFile } from "./multipart";
import { pdfPageCount } from "./pdf";
import { activeStorage, storageNamed } from "./storage";

export const fileUrl = (fileId: string) => `${env.APP_URL}/api/files/${fileId}`;

/**
 * Stores the uploads' bytes, then runs `fn` in a transaction that first
 * creates their `stored_file` rows. If anything fails the bytes are removed,
 * so a refused request leaves neither a file nor a row.
 *
 * `lockFirst` runs first in that transaction, for the row locks the caller
 * takes: a file row share-locks its organization row (the foreign key), so a
 * stronger lock on that row taken after it would deadlock concurrent callers.
 */
export async function withStoredFiles<T>(
  organizationId: string,
  uploads: UploadedFile[],
  fn: (tx: Tx, files: StoredFile[]) => Promise<T>,
  opts: { lockFirst?: (tx: Tx) => Promise<unknown> } = {},
): Promise<T> {
  const storage = activeStorage();
  const prepared = await Promise.all(
    uploads.map(async (u) => ({
      id: newId(),
      upload: u,
      pageCount: u.contentType === "application/pdf" ? await pdfPageCount(u.bytes) : null,
    })),
  );
  const stored: string[] = [];
  try {
    for (const p of prepared) {
      stored.push(
        await storage.put({
          key: `${organizationId}/${p.id}`,
          bytes: p.upload.bytes,
          contentType: p.upload.contentType,
          fileName: p.upload.fileName,
        }),
      );
    }
    return await db.$transaction(async (tx) => {
      if (opts.lockFirst) await opts.lockFirst(tx);
      const files: StoredFile[] = [];
      for (const [i, p] of prepared.entries()) {
        files.push(
          await tx.storedFile.create({
            data: {
              id: p.id,
              organizationId,
              backend: storage.name,
              storageKey: stored[i]!,
              fileName: p.upload.fileName,
              contentType: p.upload.contentType,
              size: p.upload.size,
              sha256: p.upload.sha256,
              pageCount: p.pageCount,
            },
          }),
        );
      }
      return fn(tx, files);
    });
  } catch (err) {
    await Promise.all(
      stored.map((key) =>
        storage.delete(key).catch((e) => logger.error({ err: e, key }, "could not remove the bytes of a refused upload")),
      ),
    );
    throw err;
  }
}

/** Removes bytes whose rows are gone (call after the deleting transaction committed). */
export async function removeFileBytes(files: Pick<StoredFile, "backend" | "storageKey">[]): Promise<void> {
  await Promise.all(
    files.map((f) =>
      storageNamed(f.backend)
        .delete(f.storageKey)
        .catch((err) => logger.error({ err, key: f.storageKey }, "could not remove the bytes of a deleted file")),
    ),
  );
}

/**
 * Who may open a file: an API key of its organization (a test key also the
 * logo of its live account, which both modes show); a signed-in member of
 * its organization; a platform admin, for KYB documents only.
 */
export type FileAccess = { organizationId: string; accountId?: string } | { userId: string; platformAdmin: boolean };

export async function openFile(access: FileAccess, fileId: string) {
  const where =
    "organizationId" in access
      ? {
          id: fileId,
          OR: [
            { organizationId: access.organizationId },
            // The account's logo, to a key of its test twin (settings answer that URL in both modes).
            ...(access.accountId && access.accountId !== access.organizationId
              ? [{ organizationId: access.accountId, logoOf: { is: { id: access.accountId } } }]
              : []),
          ],
        }
      : {
          id: fileId,
          OR: [
            { organization: { members: { some: { userId: access.userId } } } },
            // A test twin's files, to the members of its live organization.
            { organization: { liveOrganization: { members: { some: { userId: access.userId } } } } },
            ...(access.platformAdmin ? [{ kybDocument: { isNot: null }, organization: { livemode: true } }] : []),
          ],
        };
  const file = await db.storedFile.findFirst({ where });
  if (!file) throw notFound("File");
  const body = await storageNamed(file.backend).get(file.storageKey);
  if (!body) {
    logger.error({ fileId, backend: file.backend }, "a stored file's bytes are missing");
    throw notFound("File");
  }
  return { file, body };
}
