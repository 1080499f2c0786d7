// The UploadThing storage driven through the real SDK (`UTApi`) against a
// stand-in for UploadThing's HTTP services, passed as the SDK's `fetch`: it
// checks the requests our adapter makes (private ACL, signed URLs, the API
// key only on the API call) and keeps the bytes like the real service would.
import { describe, expect, it } from "vitest";
import { createUploadThingStorage } from "./uploadthing";

const API_KEY = `sk_live_${"k".repeat(40)}`;
const token = Buffer.from(JSON.stringify({ apiKey: API_KEY, appId: "app123", regions: ["sea1"] })).toString("base64");

function standIn() {
  const stored = new Map<string, { bytes: Buffer; acl: string | null; type: string | null }>();
  const seen: Request[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    seen.push(req.clone());
    const url = new URL(req.url);
    if (req.method === "PUT" && url.hostname === "sea1.ingest.uploadthing.com") {
      if (!url.searchParams.get("signature")?.startsWith("hmac-sha256=")) return new Response("unsigned", { status: 403 });
      const key = url.pathname.slice(1);
      const form = await req.formData();
      const file = form.get("file") as File;
      stored.set(key, {
        bytes: Buffer.from(await file.arrayBuffer()),
        acl: url.searchParams.get("x-ut-acl"),
        type: decodeURIComponent(url.searchParams.get("x-ut-file-type") ?? ""),
      });
      const ufsUrl = `https://app123.ufs.sh/f/${key}`;
      return Response.json({ url: ufsUrl, ufsUrl, appUrl: ufsUrl, fileHash: "h", serverData: null });
    }
    if (req.method === "GET" && url.hostname === "app123.ufs.sh") {
      if (!url.searchParams.get("signature")) return new Response("forbidden", { status: 403 });
      const item = stored.get(url.pathname.replace("/f/", ""));
      return item ? new Response(new Uint8Array(item.bytes)) : new Response("not found", { status: 404 });
    }
    if (req.method === "POST" && url.href === "https://api.uploadthing.com/v6/deleteFiles") {
      if (req.headers.get("x-uploadthing-api-key") !== API_KEY) return new Response("unauthorized", { status: 401 });
      const { fileKeys } = (await req.json()) as { fileKeys: string[] };
      let deletedCount = 0;
      for (const k of fileKeys) if (stored.delete(k)) deletedCount++;
      return Response.json({ success: true, deletedCount });
    }
    return new Response("unexpected request", { status: 500 });
  }) as typeof fetch;
  return { stored, seen, fetchImpl };
}

const read = async (stream: ReadableStream<Uint8Array> | null) =>
  stream ? Buffer.from(await new Response(stream).arrayBuffer()) : null;

describe("UploadThing storage", () => {
  it("stores privately, reads back through a signed URL, deletes with the API key", async () => {
    const ut = standIn();
    const storage = createUploadThingStorage({ token, fetch: ut.fetchImpl });
    const bytes = Buffer.from("%PDF-1.4 stand-in");
    const key = await storage.put({ key: "org_1/file_1", bytes, contentType: "application/pdf", fileName: "licence.pdf" });

    expect(ut.stored.get(key)?.bytes.equals(bytes)).toBe(true);
    expect(ut.stored.get(key)?.acl).toBe("private");
    expect(ut.stored.get(key)?.type).toBe("application/pdf");
    // The secret API key never travels to the ingest or file hosts.
    for (const req of ut.seen) expect(req.url.includes(API_KEY)).toBe(false);

    expect((await read(await storage.get(key)))?.equals(bytes)).toBe(true);
    await storage.delete(key);
    expect(ut.stored.has(key)).toBe(false);
    expect(await storage.get(key)).toBeNull();
  });

  it("fails loudly when UploadThing refuses a read", async () => {
    const ut = standIn();
    const refusing = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = new Request(input, init);
      if (new URL(req.url).hostname === "app123.ufs.sh") return new Response("boom", { status: 502 });
      return ut.fetchImpl(input, init);
    }) as typeof fetch;
    const storage = createUploadThingStorage({ token, fetch: refusing });
    await expect(storage.get("some-key")).rejects.toThrow(/answered 502/);
  });
});
