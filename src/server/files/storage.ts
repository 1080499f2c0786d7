// Where file bytes live, behind one interface: the local disk under
// DATA_DIR/files by default, UploadThing when UPLOADTHING_TOKEN is set. Rows
// remember their backend, so files stored before a switch stay readable.
import { env } from "@/server/env";
import { diskStorage } from "./disk";
import { uploadThingStorage } from "./uploadthing";

export interface FileStorage {
  readonly name: "disk" | "uploadthing";
  /** Stores the bytes; returns the key to read or delete them with. */
  put(file: { key: string; bytes: Buffer; contentType: string; fileName: string }): Promise<string>;
  /** The bytes as a stream, or null when they are gone. */
  get(storageKey: string): Promise<ReadableStream<Uint8Array> | null>;
  /** Removes the bytes; removing what is already gone is not an error. */
  delete(storageKey: string): Promise<void>;
}

export function activeStorage(): FileStorage {
  return env.UPLOADTHING_TOKEN ? uploadThingStorage() : diskStorage();
}

export function storageNamed(name: string): FileStorage {
  if (name === "uploadthing") return uploadThingStorage();
  return diskStorage();
}
