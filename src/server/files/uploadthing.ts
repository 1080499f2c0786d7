// UploadThing storage (UPLOADTHING_TOKEN set). The bytes still come through
// our upload route first — type sniffing, size limit and tenant checks happen
// in one place — and are then pushed with the server SDK (`UTApi`). Files are
// read back through a short-lived signed URL and streamed to the member, so an
// UploadThing URL is never handed out.
import { UTApi, UTFile } from "uploadthing/server";
import { env } from "@/server/env";
import type { FileStorage } from "./storage";

const g = globalThis as unknown as { __coverdeskUtStorage?: FileStorage };

/** The configured UploadThing storage (one SDK client per process). */
export const uploadThingStorage = (): FileStorage =>
  (g.__coverdeskUtStorage ??= createUploadThingStorage({ token: env.UPLOADTHING_TOKEN }));

/** `fetch` and the URLs can be replaced, so tests can run the SDK against a local stand-in. */
export function createUploadThingStorage(opts: {
  token?: string;
  fetch?: typeof fetch;
  apiUrl?: string;
  ingestUrl?: string;
  ufsHost?: string;
}): FileStorage {
  const client = new UTApi({ ...opts, logLevel: "Error" });
  const api = () => client;
  const download = opts.fetch ?? fetch;
  return {
    name: "uploadthing",
    async put({ key, bytes, contentType, fileName }) {
      const file = new UTFile([new Uint8Array(bytes)], fileName, { type: contentType, customId: key.replace("/", "_") });
      const result = await api().uploadFiles(file, { acl: "private", contentDisposition: "attachment" });
      if (result.error) throw new Error(`UploadThing refused the file: ${result.error.message}`);
      return result.data.key;
    },
    async get(storageKey) {
      const { ufsUrl } = await api().generateSignedURL(storageKey, { expiresIn: 60 });
      const res = await download(ufsUrl);
      if (res.status === 404) return null;
      if (!res.ok || !res.body) throw new Error(`UploadThing answered ${res.status} for a stored file`);
      return res.body;
    },
    async delete(storageKey) {
      await api().deleteFiles(storageKey);
    },
  };
}
