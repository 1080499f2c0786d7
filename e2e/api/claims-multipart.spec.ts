// REST: POST /claims as multipart/form-data — the claim's fields as text and
// its evidence as file1…file5, filed in one request and stored together: the
// answer is the Claim (as for JSON), the files are its attachments, and the
// `claim.submitted` webhook lists them. A refused file (415 by its bytes), a
// read-only key (403) or another organization's policy (404) stores nothing:
// no claim, no attachment, no event, no bytes in the server's file storage.
import crypto from "node:crypto";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { problem } from "../support/api";
import { exePart, pdfPart, pngPart, sha256, storedBytes, type FilePart } from "./_files";
import { createPolicyFor, errorPaths, ok, startReceiver, tenantWithClients } from "./_helpers";

/* eslint-disable @typescript-eslint/no-explicit-any */

const CLAIM_FIELDS = [
  "amount",
  "approvedAmount",
  "coverageId",
  "createdAt",
  "currency",
  "description",
  "id",
  "payoutAccount",
  "policyId",
  "status",
  "type",
  "updatedAt",
];

type Tenant = Awaited<ReturnType<typeof tenantWithClients>>;

const form = (policyId: string, files: Record<string, FilePart>, overrides: Record<string, string> = {}) => ({
  policyId,
  type: "accident",
  description: "Van reversed into a bollard",
  amount: "750.50",
  email: "driver@example.test",
  ...overrides,
  ...files,
});

const fileClaim = (
  client: APIRequestContext,
  multipart: Record<string, string | FilePart>,
  headers: Record<string, string> = {},
) => client.post("claims", { multipart, headers });

/** What a refused filing must leave as it was: the claims (each with its attachments) and the stored bytes. */
async function snapshot(t: Tenant) {
  const claims = (await ok(await t.read.get("claims?limit=100"))).data as any[];
  const withFiles = await Promise.all(
    claims.map(async (c) => ({ ...c, attachments: (await ok(await t.read.get(`claims/${c.id}/attachments`))).data })),
  );
  return { claims: withFiles, bytes: await storedBytes(t.organizationId) };
}

test.describe("POST /claims (multipart/form-data)", () => {
  test("the claim and its files → 201 with the Claim; the files are its attachments; claim.submitted lists them", async () => {
    const t = await tenantWithClients();
    const rx = await startReceiver();
    try {
      await ok(await t.write.post("business/webhooks", { data: { url: rx.url, events: ["claim.submitted"] } }), 201);
      const policy = await createPolicyFor(t.write);
      const photo = pngPart("bumper photo.png");
      const quote = await pdfPart("repair-quote.pdf");
      const res = await fileClaim(t.write, form(policy.id, { file1: photo, file2: quote }));
      const claim = await ok(res, 201);
      expect(Object.keys(claim).sort()).toEqual(CLAIM_FIELDS);
      expect(claim).toMatchObject({
        policyId: policy.id,
        type: "accident",
        description: "Van reversed into a bollard",
        amount: "750.50",
        status: "submitted",
        coverageId: null,
      });
      // Read back as any claim, JSON-filed or not.
      expect(await ok(await t.read.get(`claims/${claim.id}`))).toEqual(claim);

      const { data: attachments } = await ok(await t.read.get(`claims/${claim.id}/attachments`));
      expect(attachments.map((a: any) => [a.fileName, a.contentType, a.size])).toEqual([
        ["bumper photo.png", "image/png", photo.buffer.length],
        ["repair-quote.pdf", "application/pdf", quote.buffer.length],
      ]);
      // Each served back byte for byte to the organization.
      for (const [a, part] of [
        [attachments[0], photo],
        [attachments[1], quote],
      ] as const) {
        const file = await t.read.get(a.url);
        expect(file.status()).toBe(200);
        expect(sha256(Buffer.from(await file.body()))).toBe(sha256(part.buffer));
      }
      expect(await storedBytes(t.organizationId)).toHaveLength(2);

      // The webhook: the Claim, and the evidence filed with it.
      const [req] = await rx.waitFor(1);
      const event = JSON.parse(req!.body);
      expect(event).toMatchObject({ type: "claim.submitted", data: { ...claim, attachments } });
    } finally {
      await rx.close();
    }
  });

  test("without files it is filed like JSON; the customer's email links their coverage; an Idempotency-Key replays", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write);
    const bare = await ok(await fileClaim(t.write, form(policy.id, {}, { amount: "100" })), 201);
    expect(bare).toMatchObject({ amount: "100.00", status: "submitted" });
    expect((await ok(await t.read.get(`claims/${bare.id}/attachments`))).data).toEqual([]);

    const key = crypto.randomUUID();
    const body = form(policy.id, { file1: pngPart() });
    const first = await ok(await fileClaim(t.write, body, { "Idempotency-Key": key }), 201);
    const again = await fileClaim(t.write, body, { "Idempotency-Key": key });
    expect(await ok(again, 201)).toEqual(first);
    expect(again.headers()["idempotent-replayed"]).toBe("true");
    expect((await ok(await t.read.get(`claims/${first.id}/attachments`))).data).toHaveLength(1);
    expect(await storedBytes(t.organizationId)).toHaveLength(1);
  });

  test("a file that is not a PDF, PNG or JPEG by its bytes → 415 naming it; nothing is stored", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write);
    const before = await snapshot(t);
    const res = await fileClaim(t.write, form(policy.id, { file1: pngPart("ok.png"), file2: exePart() }));
    const body = await problem(res, 415, "unsupported_media_type");
    expect(errorPaths(body)).toEqual(["file2"]);
    expect(await snapshot(t)).toEqual(before);
    expect(before.claims).toEqual([]);
  });

  test("invalid fields → 422 per field; text where a file belongs → 422 on that file; nothing is stored", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write);
    const before = await snapshot(t);
    const bad = await problem(
      await fileClaim(t.write, form(policy.id, { file1: pngPart() }, { amount: "0", type: "earthquake" })),
      422,
      "validation_failed",
    );
    expect(errorPaths(bad).sort()).toEqual(["amount", "type"]);
    const text = await problem(
      await fileClaim(t.write, { ...form(policy.id, {}), file1: "%PDF-1.7 given as text" }),
      422,
      "validation_failed",
    );
    expect(errorPaths(text)).toEqual(["file1"]);
    expect(await snapshot(t)).toEqual(before);
  });

  test("a read-only key → 403 before anything is read; nothing is stored", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write);
    const before = await snapshot(t);
    await problem(await fileClaim(t.read, form(policy.id, { file1: pngPart() })), 403, "insufficient_permissions");
    expect(await snapshot(t)).toEqual(before);
  });

  test("another organization's policy → 404, and neither organization stores anything", async () => {
    const [a, b] = [await tenantWithClients(), await tenantWithClients()];
    const theirs = await createPolicyFor(b.write);
    const [beforeA, beforeB] = [await snapshot(a), await snapshot(b)];
    await problem(await fileClaim(a.write, form(theirs.id, { file1: pngPart() })), 404, "not_found");
    expect(await snapshot(a)).toEqual(beforeA);
    expect(await snapshot(b)).toEqual(beforeB);
  });
});
