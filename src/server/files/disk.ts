// Local-disk storage: DATA_DIR/files/<organizationId>/<fileId>. Written to a
// temporary name first and renamed, so a crash never leaves half a file under
// a stored key.
import crypto from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { env } from "@/server/env";
import type { FileStorage } from "./storage";

export const filesDir = () =>
  path.join(env.DATA_DIR === "memory://" ? path.join(os.tmpdir(), "coverdesk") : env.DATA_DIR, "files");

// Keys are made by us (`<org>/<id>`), but a key read back from the database is
// still checked: nothing outside the files directory is ever opened.
function resolve(storageKey: string): string {
  if (!/^[\w-]{1,100}\/[\w-]{1,100}$/.test(storageKey)) throw new Error(`Not a disk storage key: ${storageKey}`);
  return path.join(filesDir(), storageKey);
}

export const diskStorage = (): FileStorage => ({
  name: "disk",
  async put({ key, bytes }) {
    const target = resolve(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${crypto.randomBytes(6).toString("hex")}.tmp`;
    await fs.writeFile(temp, bytes, { flag: "wx" });
    await fs.rename(temp, target);
    return key;
  },
  async get(storageKey) {
    const file = resolve(storageKey);
    try {
      await fs.access(file);
    } catch {
      return null;
    }
    return Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
  },
  async delete(storageKey) {
    await fs.rm(resolve(storageKey), { force: true });
  },
});
