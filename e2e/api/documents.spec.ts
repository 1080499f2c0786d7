// Certificates and receipt samples over REST with real multipart uploads:
// exact shapes, newest-first pagination, the files served back byte for byte
// to their organization only, and every refusal (415 by the bytes, 413 with
// and without Content-Length, 422, 403, another organization's 404) leaving
// nothing behind. The dashboard's upload route and limits are in
// documents-upload.spec.ts.
import { expect, request, test } from "@playwright/test";
import { BASE_URL, problem, unique } from "../support/api";
import {
  CERTIFICATE_FIELDS,
  CERTIFICATES,
  exePart,
  fileAnswer,
  jpegPart,
  pdfPart,
  pngPart,
  RECEIPT_SAMPLE_FIELDS,
  RECEIPT_SAMPLES,
  sha256,
  uploadCertificate,
  uploadReceiptSample,
  type FilePart,
} from "./_files";
import { errorPaths, ISO, listAll, ok, tenantWithClients } from "./_helpers";

type Client = Awaited<ReturnType<typeof tenantWithClients>>["write"];
// Specs read loosely-typed JSON and assert on it.
/* eslint-disable @typescript-eslint/no-explicit-any */

/** What both document kinds share, so each rule is checked on both. */
const KINDS = [
  {
    label: "certificate",
    path: CERTIFICATES,
    fields: CERTIFICATE_FIELDS,
    upload: (c: Client, file?: FilePart) => uploadCertificate(c, { file }),
    form: (file: FilePart | undefined) => ({ ...(file ? { file } : {}), name: `Licence ${unique()}`, type: "insurance licence" }),
  },
  {
    label: "receipt sample",
    path: RECEIPT_SAMPLES,
    fields: RECEIPT_SAMPLE_FIELDS,
    upload: (c: Client, file?: FilePart) => uploadReceiptSample(c, { file }),
    form: (file: FilePart | undefined) => ({ ...(file ? { file } : {}), name: `Receipt ${unique()}` }),
  },
] as const;

const listed = async (c: Client, path: string) => listAll<any>(c, path);
const FILE_URL = new RegExp(`^${BASE_URL.replace(/[.]/g, "\\.")}/api/files/[\\w-]+$`);

for (const kind of KINDS) {
  test.describe(`${kind.label}s`, () => {
    test("a PDF, a PNG and a JPEG → 201 with the exact shape, listed newest first, paginated", async () => {
      const t = await tenantWithClients();
      const files = [await pdfPart("licence.pdf"), pngPart("scan.png"), jpegPart("photo.jpg")];
      const made: any[] = [];
      for (const file of files) {
        const form = kind.form(file);
        const body = await ok(await t.write.post(kind.path, { multipart: form }), 201);
        expect(Object.keys(body).sort()).toEqual([...kind.fields].sort());
        expect(body).toMatchObject({
          name: form.name,
          fileName: file.name,
          contentType: file.mimeType,
          size: file.buffer.length,
        });
        if ("type" in form) expect(body).toMatchObject({ type: form.type, isActive: true });
        expect(body.url).toMatch(FILE_URL);
        expect(body.createdAt).toMatch(ISO);
        made.push(body);
      }
      const all = await ok(await t.read.get(kind.path));
      expect(all).toEqual({ data: [...made].reverse(), nextCursor: null });

      const pages: any[] = [];
      let cursor: string | null = null;
      for (let i = 0; i < 3; i++) {
        const page: any = await ok(
          await t.read.get(`${kind.path}?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`),
        );
        expect(page.data).toHaveLength(1);
        pages.push(page.data[0]);
        cursor = page.nextCursor;
        expect(cursor === null).toBe(i === 2);
      }
      expect(pages.map((d) => d.id)).toEqual(made.map((d) => d.id).reverse());
    });

    test("`url` serves the exact bytes to the organization's keys (inline, nosniff, no-store); another organization's key → 404", async () => {
      const [t, other] = [await tenantWithClients(), await tenantWithClients()];
      const file = await pdfPart("Licence 2026.pdf");
      const doc = await kind.upload(t.write, file);
      for (const client of [t.write, t.read]) {
        const res = await client.get(doc.url);
        expect(res.status()).toBe(200);
        expect(sha256(await res.body())).toBe(sha256(file.buffer));
        expect(res.headers()).toMatchObject({
          "content-type": "application/pdf",
          "content-disposition": `inline; filename="Licence 2026.pdf"; filename*=UTF-8''Licence%202026.pdf`,
          "x-content-type-options": "nosniff",
          "cache-control": "private, no-store",
        });
      }
      const download = await t.read.get(`${doc.url}?download=1`);
      expect(download.headers()["content-disposition"]).toMatch(/^attachment; filename="Licence 2026\.pdf"/);
      expect(sha256(await download.body())).toBe(sha256(file.buffer));

      await problem(await other.write.get(doc.url), 404, "not_found");
      await problem(await other.account.session.get(doc.url), 404, "not_found");
      await problem(await other.write.get(`${doc.url.replace(/[\w-]+$/, "")}zz${unique()}`), 404, "not_found");
      const anonymous = await request.newContext();
      await problem(await anonymous.get(doc.url), 401, "unauthenticated");
      await anonymous.dispose();
      // The owner's session opens it too (the dashboard's way).
      expect((await fileAnswer(await t.account.session.get(doc.url))).sha256).toBe(sha256(file.buffer));
    });

    test("the type comes from the bytes: a PNG named scan.pdf declared application/pdf is stored as image/png, scan.png", async () => {
      const t = await tenantWithClients();
      const doc = await kind.upload(t.write, {
        name: "../../etc/scan.pdf",
        mimeType: "application/pdf",
        buffer: pngPart().buffer,
      });
      expect(doc).toMatchObject({ contentType: "image/png", fileName: "scan.png" });
      expect((await t.write.get(doc.url)).headers()["content-type"]).toBe("image/png");
    });

    test("an executable named x.pdf declared application/pdf → 415, nothing stored", async () => {
      const t = await tenantWithClients();
      await kind.upload(t.write);
      const before = await listed(t.write, kind.path);
      const body = await problem(
        await t.write.post(kind.path, { multipart: kind.form(exePart()) }),
        415,
        "unsupported_media_type",
      );
      expect(errorPaths(body)).toEqual(["file"]);
      expect(await listed(t.write, kind.path)).toEqual(before);
    });

    test("missing file or name → 422 naming it; a JSON body → 415; nothing stored", async () => {
      const t = await tenantWithClients();
      const form = kind.form(await pdfPart());
      const noFile = await problem(await t.write.post(kind.path, { multipart: kind.form(undefined) }), 422, "validation_failed");
      expect(errorPaths(noFile)).toEqual(["file"]);
      const { name: _name, ...withoutName } = form;
      expect(
        errorPaths(await problem(await t.write.post(kind.path, { multipart: withoutName }), 422, "validation_failed")),
      ).toEqual(["name"]);
      // Text where the file belongs is no file.
      const asText = await problem(
        await t.write.post(kind.path, { multipart: { ...form, file: "%PDF-1.7 not a file" } }),
        422,
        "validation_failed",
      );
      expect(errorPaths(asText)).toEqual(["file"]);
      const { file: _file, ...fields } = form;
      await problem(await t.write.post(kind.path, { data: fields }), 415, "unsupported_media_type");
      expect(await listed(t.write, kind.path)).toEqual([]);
    });

    test("DELETE → 204; a second DELETE → 404; the file URL → 404; no longer listed", async () => {
      const t = await tenantWithClients();
      const [keep, gone] = [await kind.upload(t.write), await kind.upload(t.write)];
      const res = await t.write.delete(`${kind.path}/${gone.id}`);
      expect(res.status()).toBe(204);
      expect(await res.text()).toBe("");
      await problem(await t.write.delete(`${kind.path}/${gone.id}`), 404, "not_found");
      await problem(await t.write.get(gone.url), 404, "not_found");
      expect(await listed(t.write, kind.path)).toEqual([keep]);
      expect((await t.write.get(keep.url)).status()).toBe(200);
    });

    test("another organization's record → 404 on DELETE; the owner still lists it and its file still downloads", async () => {
      const [a, b] = [await tenantWithClients(), await tenantWithClients()];
      const theirs = await kind.upload(b.write);
      const before = { list: await listed(b.write, kind.path), file: await fileAnswer(await b.write.get(theirs.url)) };
      await problem(await a.write.delete(`${kind.path}/${theirs.id}`), 404, "not_found");
      if (kind.path === CERTIFICATES) {
        for (const isActive of [false, true]) {
          await problem(await a.write.patch(`${kind.path}/${theirs.id}`, { data: { isActive } }), 404, "not_found");
        }
      }
      expect({ list: await listed(b.write, kind.path), file: await fileAnswer(await b.write.get(theirs.url)) }).toEqual(before);
      expect(before.file.status).toBe(200);
    });

    test("a read-only key → 403 on upload, change and delete; nothing written", async () => {
      const t = await tenantWithClients();
      const doc = await kind.upload(t.write);
      const before = await listed(t.write, kind.path);
      await problem(await t.read.post(kind.path, { multipart: kind.form(await pdfPart()) }), 403, "insufficient_permissions");
      if (kind.path === CERTIFICATES) {
        await problem(
          await t.read.patch(`${kind.path}/${doc.id}`, { data: { isActive: false } }),
          403,
          "insufficient_permissions",
        );
      }
      await problem(await t.read.delete(`${kind.path}/${doc.id}`), 403, "insufficient_permissions");
      expect(await listed(t.write, kind.path)).toEqual(before);
      expect((await t.write.get(doc.url)).status()).toBe(200);
    });

    test("Idempotency-Key: the same upload replays (same id); another file with that key → 422 idempotency_key_reused", async () => {
      const t = await tenantWithClients();
      const key = `upload-${unique()}`;
      const form = kind.form(await pdfPart());
      const first = await t.write.post(kind.path, { multipart: form, headers: { "Idempotency-Key": key } });
      const created = await ok(first, 201);
      expect(first.headers()["idempotent-replayed"]).toBeUndefined();
      const again = await t.write.post(kind.path, { multipart: form, headers: { "Idempotency-Key": key } });
      expect(await ok(again, 201)).toEqual(created);
      expect(again.headers()["idempotent-replayed"]).toBe("true");
      const other = { ...form, file: await pdfPart() };
      await problem(
        await t.write.post(kind.path, { multipart: other, headers: { "Idempotency-Key": key } }),
        422,
        "idempotency_key_reused",
      );
      expect(await listed(t.write, kind.path)).toEqual([created]);
    });
  });
}

test.describe("certificate activation", () => {
  test("PATCH isActive false then true → 200 with the certificate; the list shows it", async () => {
    const t = await tenantWithClients();
    const cert = await uploadCertificate(t.write);
    for (const isActive of [false, true, false]) {
      const body = await ok(await t.write.patch(`${CERTIFICATES}/${cert.id}`, { data: { isActive } }));
      expect(body).toEqual({ ...cert, isActive });
      expect(await listed(t.read, CERTIFICATES)).toEqual([{ ...cert, isActive }]);
    }
  });

  test("PATCH with a bad body → 422 (400 for broken JSON), the certificate unchanged", async () => {
    const t = await tenantWithClients();
    const cert = await uploadCertificate(t.write);
    for (const [data, path] of [
      [{ isActive: "no" }, "isActive"],
      [{ isActive: null }, "isActive"],
      [{}, "isActive"],
      [{ isActive: false, name: "renamed" }, ""],
    ] as const) {
      const body = await problem(await t.write.patch(`${CERTIFICATES}/${cert.id}`, { data }), 422, "validation_failed");
      expect(errorPaths(body)).toEqual([path]);
    }
    const broken = await t.write.patch(`${CERTIFICATES}/${cert.id}`, {
      data: Buffer.from('{"isActive":'),
      headers: { "Content-Type": "application/json" },
    });
    await problem(broken, 400, "malformed_json");
    expect(await listed(t.read, CERTIFICATES)).toEqual([cert]);
  });
});
