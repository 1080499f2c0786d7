// REST: evidence on claims, POST/GET /claims/{id}/attachments — real PNG and
// PDF uploads served back byte for byte to their organization only, and every
// refusal (415 by the bytes, 413, 409 past five, 401, 403, another
// organization's 404) leaving nothing behind: no attachment, and no bytes in
// the server's file storage (its DATA_DIR is E2E_DATA_DIR).
import { expect, request, test, type APIRequestContext } from "@playwright/test";
import { BASE_URL, createKey, problem, signUp, unique } from "../support/api";
import { fileAnswer, jpegPart, pdfOfSize, pdfPart, pngPart, sha256, storedBytes, type FilePart } from "./_files";
import { createPolicyFor, errorPaths, ISO, ok, tenantWithClients } from "./_helpers";

/* eslint-disable @typescript-eslint/no-explicit-any */

const FIELDS = ["claimId", "contentType", "createdAt", "fileName", "id", "size", "url"];
const FILE_URL = new RegExp(`^${BASE_URL.replace(/[.]/g, "\\.")}/api/files/[\\w-]+$`);
const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

type Tenant = Awaited<ReturnType<typeof tenantWithClients>>;

async function claimOf(t: Tenant) {
  const policy = await createPolicyFor(t.write);
  return ok(
    await t.write.post("claims", { data: { policyId: policy.id, type: "fire", description: "Kitchen fire", amount: 900 } }),
    201,
  );
}

const attach = (client: APIRequestContext, claimId: string, file: FilePart) =>
  client.post(`claims/${claimId}/attachments`, { multipart: { file } });
const attachments = async (client: APIRequestContext, claimId: string) =>
  ok(await client.get(`claims/${claimId}/attachments`)) as Promise<{ data: any[]; nextCursor: null }>;

/** What a refusal must leave as it was: the claim's attachments and the organization's stored bytes. */
const snapshot = async (t: Tenant, claimId: string) => ({
  attachments: await attachments(t.write, claimId),
  bytes: await storedBytes(t.organizationId),
});

test.describe("POST /claims/{id}/attachments", () => {
  test("a PNG and a PDF → 201 with the exact shape, listed oldest first; `url` serves the bytes to the organization only", async () => {
    const [t, other] = [await tenantWithClients(), await tenantWithClients()];
    const claim = await claimOf(t);
    expect(await attachments(t.read, claim.id)).toEqual({ data: [], nextCursor: null });
    const files = [pngPart("damage photo.png"), await pdfPart("police-report.pdf")];
    const made: any[] = [];
    for (const file of files) {
      const body = await ok(await attach(t.write, claim.id, file), 201);
      expect(Object.keys(body).sort()).toEqual(FIELDS);
      expect(body).toMatchObject({
        claimId: claim.id,
        fileName: file.name,
        contentType: file.mimeType,
        size: file.buffer.length,
      });
      expect(body.url).toMatch(FILE_URL);
      expect(body.createdAt).toMatch(ISO);
      made.push(body);
    }
    expect(await attachments(t.read, claim.id)).toEqual({ data: made, nextCursor: null });
    // The claim itself is the same resource as before (its evidence is the sub-resource).
    expect(await ok(await t.read.get(`claims/${claim.id}`))).toEqual(claim);
    expect(await storedBytes(t.organizationId)).toHaveLength(2);

    for (const [i, file] of files.entries()) {
      for (const client of [t.write, t.read]) {
        const res = await client.get(made[i].url);
        expect(res.status()).toBe(200);
        expect(res.headers()["content-type"]).toBe(file.mimeType);
        expect(sha256(await res.body())).toBe(sha256(file.buffer));
      }
      const download = await t.read.get(`${made[i].url}?download=1`);
      expect(download.headers()["content-disposition"]).toMatch(/^attachment; filename=/);
      await problem(await other.write.get(made[i].url), 404, "not_found");
      await problem(await other.account.session.get(made[i].url), 404, "not_found");
      // The owner's session opens it (the dashboard's way).
      expect((await fileAnswer(await t.account.session.get(made[i].url))).sha256).toBe(sha256(file.buffer));
    }
    const anonymous = await request.newContext();
    await problem(await anonymous.get(made[0].url), 401, "unauthenticated");
    await anonymous.dispose();
  });

  test("the type comes from the bytes: a text file named photo.png → 415 naming the file; a PNG called x.pdf is stored as PNG", async () => {
    const t = await tenantWithClients();
    const claim = await claimOf(t);
    const before = await snapshot(t, claim.id);
    const text: FilePart = { name: "photo.png", mimeType: "image/png", buffer: Buffer.from("just some text, not an image\n") };
    expect(errorPaths(await problem(await attach(t.write, claim.id, text), 415, "unsupported_media_type"))).toEqual(["file"]);
    expect(await snapshot(t, claim.id)).toEqual(before);

    const disguised = await ok(
      await attach(t.write, claim.id, { name: "x.pdf", mimeType: "application/pdf", buffer: pngPart().buffer }),
      201,
    );
    expect(disguised).toMatchObject({ contentType: "image/png", fileName: "x.png" });
    expect(await ok(await attach(t.write, claim.id, jpegPart()), 201)).toMatchObject({ contentType: "image/jpeg" });
  });

  test("a file over MAX_UPLOAD_BYTES (10 MiB + 1) → 413 naming the file; a missing file → 422; nothing stored", async () => {
    test.setTimeout(120_000);
    const t = await tenantWithClients();
    const claim = await claimOf(t);
    const before = await snapshot(t, claim.id);
    const big: FilePart = { name: "big.pdf", mimeType: "application/pdf", buffer: pdfOfSize(MAX_UPLOAD_BYTES + 1) };
    expect(errorPaths(await problem(await attach(t.write, claim.id, big), 413, "payload_too_large"))).toEqual(["file"]);
    const missing = await t.write.post(`claims/${claim.id}/attachments`, { multipart: { note: "no file" } });
    await problem(missing, 422, "validation_failed");
    expect(await snapshot(t, claim.id)).toEqual(before);
  });

  test("the 6th → 409 attachment_limit, nothing stored (bytes included), from the API and the dashboard alike", async () => {
    const t = await tenantWithClients();
    const claim = await claimOf(t);
    for (let i = 0; i < 5; i++)
      await ok(await attach(t.write, claim.id, i % 2 ? pngPart(`p${i}.png`) : await pdfPart(`d${i}.pdf`)), 201);
    const before = await snapshot(t, claim.id);
    expect(before.attachments.data).toHaveLength(5);
    expect(before.bytes).toHaveLength(5);
    const refused = await problem(await attach(t.write, claim.id, pngPart()), 409, "attachment_limit");
    expect(refused.detail).toBe("A claim can have at most 5 attachments");
    const viaDashboard = await t.account.session.post(`/api/upload/claims/${claim.id}/attachments`, {
      multipart: { file: pngPart() },
      headers: { Origin: BASE_URL },
    });
    await problem(viaDashboard, 409, "attachment_limit");
    expect(await snapshot(t, claim.id)).toEqual(before);
    // Another claim of the organization is not affected.
    const next = await claimOf(t);
    await ok(await attach(t.write, next.id, pngPart()), 201);
  });

  test("the dashboard's upload route: a member's session from the app's origin → 201, the same attachment the API lists", async () => {
    const t = await tenantWithClients();
    const claim = await claimOf(t);
    const res = await t.account.session.post(`/api/upload/claims/${claim.id}/attachments`, {
      multipart: { file: pngPart("from-dashboard.png") },
      headers: { Origin: BASE_URL },
    });
    const added = await ok(res, 201);
    expect(added).toMatchObject({ claimId: claim.id, fileName: "from-dashboard.png", contentType: "image/png" });
    expect((await attachments(t.read, claim.id)).data).toEqual([added]);
    const forged = await t.account.session.post(`/api/upload/claims/${claim.id}/attachments`, {
      multipart: { file: pngPart() },
      headers: { Origin: "https://evil.example" },
    });
    await problem(forged, 403, "forbidden");
    expect((await attachments(t.read, claim.id)).data).toEqual([added]);
  });

  test("no key or a revoked key → 401; a read-only key → 403 (it may list); nothing stored", async () => {
    const t = await tenantWithClients();
    const claim = await claimOf(t);
    await ok(await attach(t.write, claim.id, pngPart()), 201);
    const before = await snapshot(t, claim.id);

    const none = await request.newContext({ baseURL: `${BASE_URL}/api/v1/` });
    await problem(await attach(none, claim.id, pngPart()), 401, "missing_api_key");
    await problem(await none.get(`claims/${claim.id}/attachments`), 401, "missing_api_key");
    await none.dispose();

    const gone = await createKey(t.account, ["read", "write"]);
    await ok(await t.write.delete(`business/api-keys/${gone.id}`));
    const revoked = await request.newContext({
      baseURL: `${BASE_URL}/api/v1/`,
      extraHTTPHeaders: { Authorization: `Bearer ${gone.key}` },
    });
    await problem(await attach(revoked, claim.id, pngPart()), 401, "revoked_api_key");
    await problem(await revoked.get(`claims/${claim.id}/attachments`), 401, "revoked_api_key");
    await revoked.dispose();

    await problem(await attach(t.read, claim.id, await pdfPart()), 403, "insufficient_permissions");
    expect(await attachments(t.read, claim.id)).toEqual(before.attachments);
    expect(await snapshot(t, claim.id)).toEqual(before);
  });

  test("another organization's claim → 404 (add and list), its attachments and files unchanged, nothing stored for either", async () => {
    const [a, b] = [await tenantWithClients(), await tenantWithClients()];
    const [own, theirs] = [await claimOf(a), await claimOf(b)];
    const evidence = await ok(await attach(b.write, theirs.id, await pdfPart("b-report.pdf")), 201);
    const [beforeA, beforeB] = [await snapshot(a, own.id), await snapshot(b, theirs.id)];
    const file = await fileAnswer(await b.write.get(evidence.url));

    await problem(await attach(a.write, theirs.id, pngPart()), 404, "not_found");
    await problem(await a.read.get(`claims/${theirs.id}/attachments`), 404, "not_found");
    await problem(await attach(a.write, `zz${unique()}`, pngPart()), 404, "not_found");
    const viaDashboard = await a.account.session.post(`/api/upload/claims/${theirs.id}/attachments`, {
      multipart: { file: pngPart() },
      headers: { Origin: BASE_URL },
    });
    await problem(viaDashboard, 404, "not_found");

    expect(await snapshot(a, own.id)).toEqual(beforeA);
    expect(await snapshot(b, theirs.id)).toEqual(beforeB);
    expect(await fileAnswer(await b.write.get(evidence.url))).toEqual(file);
    // A stranger's signed-in session does not open it either.
    const stranger = await signUp();
    await problem(await stranger.session.get(evidence.url), 404, "not_found");
  });
});
