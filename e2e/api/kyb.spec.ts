// KYB over REST with real multipart uploads: not_submitted → pending on
// submit (409 when already pending or approved), refusals that leave nothing
// behind, and the platform admin's review over tRPC (admin.rejectKyb /
// admin.approveKyb): rejected (with the reason) → resubmit with new documents
// → pending → approved. The review tests need the platform admin that
// `npm run admin:grant` creates before the e2e server starts.
import { expect, test } from "@playwright/test";
import { problem, signInPlatformAdmin, unique } from "../support/api";
import {
  exePart,
  jpegPart,
  KYB_DOCUMENT_FIELDS,
  KYB_FIELDS,
  pdfPart,
  pngPart,
  sha256,
  uploadCertificate,
  type FilePart,
} from "./_files";
import { errorPaths, ISO, ok, tenantWithClients, trpc, trpcError } from "./_helpers";

/** Documents in form order (the list endpoint orders a submission's two by id). */
const byKind = <T extends { kind: string }>(docs: T[]) => [...docs].sort((a, b) => a.kind.localeCompare(b.kind));

const STATUS = "business/compliance/kyb/status";
const SUBMIT = "business/compliance/kyb/submit";
const RESUBMIT = "business/compliance/kyb/resubmit";
const DOCUMENTS = "business/compliance/kyb/documents";

type Tenant = Awaited<ReturnType<typeof tenantWithClients>>;
// Specs read loosely-typed JSON and assert on it.
/* eslint-disable @typescript-eslint/no-explicit-any */

const NOT_SUBMITTED = { status: "not_submitted", submittedAt: null, reviewedAt: null, rejectionReason: null, documents: [] };

async function kybForm(): Promise<{ certificateOfIncorporation: FilePart; taxCertificate: FilePart }> {
  return { certificateOfIncorporation: await pdfPart(`incorporation-${unique()}.pdf`), taxCertificate: pngPart("tin.png") };
}

/** Checks a KYB answer's exact shape and that its documents are these files; answers it. */
async function expectKyb(t: Tenant, kyb: any, files?: Record<string, FilePart>) {
  expect(Object.keys(kyb).sort()).toEqual(KYB_FIELDS);
  for (const doc of kyb.documents) expect(Object.keys(doc).sort()).toEqual(KYB_DOCUMENT_FIELDS);
  if (files) {
    expect(kyb.documents.map((d: any) => d.kind).sort()).toEqual(Object.keys(files).sort());
    for (const doc of kyb.documents) {
      const file = files[doc.kind]!;
      expect(doc).toMatchObject({ fileName: file.name, contentType: file.mimeType, size: file.buffer.length });
      expect(doc.createdAt).toMatch(ISO);
      const res = await t.read.get(doc.url);
      expect(res.status()).toBe(200);
      expect(sha256(await res.body())).toBe(sha256(file.buffer));
    }
  }
  return kyb;
}

const status = async (t: Tenant) => ok(await t.read.get(STATUS));

/** A tenant whose KYB is pending with a first submission. */
async function submitted() {
  const t = await tenantWithClients();
  const files = await kybForm();
  const kyb = await expectKyb(t, await ok(await t.write.post(SUBMIT, { multipart: files }), 201), files);
  return { t, files, kyb };
}

test.describe("KYB (business side)", () => {
  test("a new organization: not_submitted, no documents", async () => {
    const t = await tenantWithClients();
    expect(await status(t)).toEqual(NOT_SUBMITTED);
    expect(await ok(await t.read.get(DOCUMENTS))).toEqual({ data: [], nextCursor: null });
  });

  test("submit both files → 201 pending with the 2 documents; they download to this organization only", async () => {
    const { t, kyb } = await submitted();
    expect(kyb).toMatchObject({ status: "pending", reviewedAt: null, rejectionReason: null });
    expect(kyb.submittedAt).toMatch(ISO);
    expect(kyb.documents).toHaveLength(2);
    expect(await status(t)).toEqual(kyb);
    const other = await tenantWithClients();
    for (const doc of kyb.documents) await problem(await other.write.get(doc.url), 404, "not_found");
  });

  test("GET documents lists the current two, paginated", async () => {
    const { t, kyb } = await submitted();
    // Both documents of a submission share its instant, so "newest first" leaves their order to the id;
    // the status object lists them in form order. Same documents, each page once.
    const all = await ok(await t.read.get(DOCUMENTS));
    expect(all.nextCursor).toBeNull();
    expect(byKind(all.data)).toEqual(byKind(kyb.documents));
    const first = await ok(await t.read.get(`${DOCUMENTS}?limit=1`));
    expect(first.data).toEqual([all.data[0]]);
    expect(typeof first.nextCursor).toBe("string");
    const second = await ok(await t.read.get(`${DOCUMENTS}?limit=1&cursor=${encodeURIComponent(first.nextCursor)}`));
    expect(second).toEqual({ data: [all.data[1]], nextCursor: null });
  });

  test("while pending: submit again → 409, resubmit → 409; nothing changes", async () => {
    const { t, kyb } = await submitted();
    await problem(await t.write.post(SUBMIT, { multipart: await kybForm() }), 409, "invalid_state");
    await problem(await t.write.post(RESUBMIT, { multipart: await kybForm() }), 409, "invalid_state");
    expect(await status(t)).toEqual(kyb);
    expect(byKind((await ok(await t.read.get(DOCUMENTS))).data)).toEqual(byKind(kyb.documents));
  });

  test("a missing file → 422 naming it; a wrong type in one field → 415; still not_submitted with no documents", async () => {
    const t = await tenantWithClients();
    const { certificateOfIncorporation } = await kybForm();
    const missing = await problem(
      await t.write.post(SUBMIT, { multipart: { certificateOfIncorporation } }),
      422,
      "validation_failed",
    );
    expect(errorPaths(missing)).toEqual(["taxCertificate"]);
    const none = await problem(await t.write.post(SUBMIT, { multipart: { note: "no files" } }), 422, "validation_failed");
    // Both files named; the unknown field is refused at the form's root.
    expect(errorPaths(none).sort()).toEqual(["", "certificateOfIncorporation", "taxCertificate"]);
    const wrong = await problem(
      await t.write.post(SUBMIT, { multipart: { certificateOfIncorporation, taxCertificate: exePart() } }),
      415,
      "unsupported_media_type",
    );
    expect(errorPaths(wrong)).toEqual(["taxCertificate"]);
    await problem(
      await t.write.post(SUBMIT, { data: { certificateOfIncorporation: "x", taxCertificate: "y" } }),
      415,
      "unsupported_media_type",
    );
    expect(await status(t)).toEqual(NOT_SUBMITTED);
    expect(await ok(await t.read.get(DOCUMENTS))).toEqual({ data: [], nextCursor: null });
  });

  test("a read-only key → 403 on submit and resubmit; still not_submitted", async () => {
    const t = await tenantWithClients();
    await problem(await t.read.post(SUBMIT, { multipart: await kybForm() }), 403, "insufficient_permissions");
    await problem(await t.read.post(RESUBMIT, { multipart: await kybForm() }), 403, "insufficient_permissions");
    expect(await status(t)).toEqual(NOT_SUBMITTED);
  });
});

// Needs the platform admin: fails (with how to create it) until the e2e server starts after `npm run admin:grant`.
test.describe("KYB review by a platform admin (tRPC admin.*)", () => {
  test("reject with a reason → the business sees it → resubmit → pending with the new documents → approve → approved", async () => {
    const admin = await signInPlatformAdmin();
    const { t, kyb: first } = await submitted();
    const organizationId = t.organizationId;

    expect(await trpcError(admin, "admin.rejectKyb", { organizationId, reason: "no" })).toMatchObject({
      code: "validation_failed",
    });
    expect(await status(t)).toEqual(first);

    const reason = "The tax certificate is illegible; upload a clearer scan.";
    await trpc(admin, "admin.rejectKyb", { organizationId, reason });
    const rejected = await status(t);
    expect(rejected).toMatchObject({
      status: "rejected",
      rejectionReason: reason,
      submittedAt: first.submittedAt,
      documents: first.documents,
    });
    expect(rejected.reviewedAt).toMatch(ISO);

    // Rejected: submit is the wrong move, resubmit needs both files.
    await problem(await t.write.post(SUBMIT, { multipart: await kybForm() }), 409, "invalid_state");
    const { certificateOfIncorporation } = await kybForm();
    await problem(await t.write.post(RESUBMIT, { multipart: { certificateOfIncorporation } }), 422, "validation_failed");
    expect(await status(t)).toEqual(rejected);

    const files = { certificateOfIncorporation: await pdfPart("incorporation-v2.pdf"), taxCertificate: jpegPart("tin-v2.jpg") };
    const again = await expectKyb(t, await ok(await t.write.post(RESUBMIT, { multipart: files }), 201), files);
    expect(again).toMatchObject({ status: "pending", reviewedAt: null, rejectionReason: null });
    expect(Date.parse(again.submittedAt)).toBeGreaterThanOrEqual(Date.parse(first.submittedAt));
    const oldIds = first.documents.map((d: any) => d.id);
    expect(again.documents.filter((d: any) => oldIds.includes(d.id))).toEqual([]);
    expect(await status(t)).toEqual(again);
    expect(byKind((await ok(await t.read.get(DOCUMENTS))).data)).toEqual(byKind(again.documents));
    // The rejected documents are kept (not listed): their files still open for the organization.
    for (const doc of first.documents) expect((await t.read.get(doc.url)).status()).toBe(200);

    await trpc(admin, "admin.approveKyb", { organizationId });
    const approved = await status(t);
    expect(approved).toMatchObject({
      status: "approved",
      rejectionReason: null,
      submittedAt: again.submittedAt,
      documents: again.documents,
    });
    expect(approved.reviewedAt).toMatch(ISO);

    // Decided: no decision, submission or resubmission moves it.
    expect(await trpcError(admin, "admin.approveKyb", { organizationId })).toMatchObject({ status: 409, code: "invalid_state" });
    expect(await trpcError(admin, "admin.rejectKyb", { organizationId, reason })).toMatchObject({
      status: 409,
      code: "invalid_state",
    });
    await problem(await t.write.post(SUBMIT, { multipart: await kybForm() }), 409, "invalid_state");
    await problem(await t.write.post(RESUBMIT, { multipart: await kybForm() }), 409, "invalid_state");
    expect(await status(t)).toEqual(approved);
  });

  test("a rejected KYB cannot be decided again until resubmitted (409)", async () => {
    const admin = await signInPlatformAdmin();
    const { t } = await submitted();
    const organizationId = t.organizationId;
    await trpc(admin, "admin.rejectKyb", { organizationId, reason: "Wrong company name on the certificate." });
    const rejected = await status(t);
    expect(await trpcError(admin, "admin.approveKyb", { organizationId })).toMatchObject({ status: 409, code: "invalid_state" });
    expect(await trpcError(admin, "admin.rejectKyb", { organizationId, reason: "Rejected twice over." })).toMatchObject({
      status: 409,
      code: "invalid_state",
    });
    expect(await status(t)).toEqual(rejected);
    expect(await trpcError(admin, "admin.approveKyb", { organizationId: `zz${unique()}` })).toMatchObject({ status: 404 });
  });

  test("a business owner calling admin.* → 404 NOT_FOUND, the KYB unchanged; the admin opens KYB files, not other files", async () => {
    const admin = await signInPlatformAdmin();
    const { t, kyb } = await submitted();
    const organizationId = t.organizationId;
    for (const [procedure, input] of [
      ["admin.approveKyb", { organizationId }],
      ["admin.rejectKyb", { organizationId, reason: "Approving my own business." }],
    ] as const) {
      expect((await trpcError(t.account, procedure, input)).status, procedure).toBe(404);
    }
    expect(await status(t)).toEqual(kyb);

    for (const doc of kyb.documents) expect((await admin.session.get(doc.url)).status()).toBe(200);
    const cert = await uploadCertificate(t.write);
    await problem(await admin.session.get(cert.url), 404, "not_found");
    // The same procedures work for the admin: the owner's 404 was a refusal, not a missing route.
    await trpc(admin, "admin.approveKyb", { organizationId });
    expect((await status(t)).status).toBe("approved");
  });
});
