import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ownerWithOrganization } from "@/test/fixtures";
import { filesDir } from "./disk";
import { UploadedFile } from "./multipart";
import { sweepOrphanFiles } from "./orphans";
import { withStoredFiles } from "./service";

const PDF = Buffer.from("%PDF-1.4\n%%EOF\n");

describe("sweepOrphanFiles", () => {
  it("removes old bytes no row refers to, keeps stored files and recent writes", async () => {
    const { org } = await ownerWithOrganization();
    const kept = await withStoredFiles(
      org.id,
      [new UploadedFile("file", "a.pdf", "application/pdf", PDF)],
      async (_tx, [f]) => f!,
    );
    const dir = path.join(filesDir(), org.id);
    const orphan = path.join(dir, "orphanfileid0001");
    const fresh = path.join(dir, "orphanfileid0002");
    await fs.writeFile(orphan, PDF);
    await fs.writeFile(fresh, PDF);
    const old = new Date(Date.now() - 2 * 3600_000);
    await fs.utimes(orphan, old, old);
    await fs.utimes(path.join(dir, kept.id), old, old);

    expect(await sweepOrphanFiles()).toBeGreaterThanOrEqual(1);
    await expect(fs.access(orphan)).rejects.toThrow();
    await fs.access(fresh);
    await fs.access(path.join(dir, kept.id));
  });

  it("removes the bytes when the transaction that should own them fails", async () => {
    const { org } = await ownerWithOrganization();
    const before = await fs.readdir(path.join(filesDir(), org.id)).catch(() => []);
    await expect(
      withStoredFiles(org.id, [new UploadedFile("file", "a.pdf", "application/pdf", PDF)], async () => {
        throw new Error("refused after storing");
      }),
    ).rejects.toThrow("refused after storing");
    const after = await fs.readdir(path.join(filesDir(), org.id)).catch(() => []);
    expect(after).toEqual(before);
  });
});
