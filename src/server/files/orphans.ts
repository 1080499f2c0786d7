// Bytes on disk whose row never committed (the process died between storing
// the file and its transaction) are removed after an hour: long enough that
// no upload still in flight is touched.
import fs from "node:fs/promises";
import path from "node:path";
import { db } from "@/server/db/client";
import { logger } from "@/server/logger";
import { filesDir } from "./disk";

const GRACE_MS = 60 * 60_000;

export async function sweepOrphanFiles(now = Date.now()): Promise<number> {
  const root = filesDir();
  let orgs: string[];
  try {
    orgs = await fs.readdir(root);
  } catch {
    return 0; // nothing stored yet
  }
  let removed = 0;
  for (const org of orgs) {
    const dir = path.join(root, org);
    const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((n) => /^[\w-]{1,100}(\.[0-9a-f]+\.tmp)?$/.test(n));
    if (names.length === 0) continue;
    const ids = names.map((n) => n.split(".")[0]!);
    const known = new Set(
      (await db.storedFile.findMany({ where: { organizationId: org, id: { in: ids } }, select: { id: true } })).map((r) => r.id),
    );
    for (const name of names) {
      const isTemp = name.endsWith(".tmp");
      if (!isTemp && known.has(name)) continue;
      const file = path.join(dir, name);
      const stat = await fs.stat(file).catch(() => null);
      if (!stat || now - stat.mtimeMs < GRACE_MS) continue;
      await fs.rm(file, { force: true });
      removed++;
    }
  }
  if (removed > 0) logger.info({ removed }, "removed stored bytes that no row refers to");
  return removed;
}
