// KYB: the state machine (not_submitted → pending → approved | rejected,
// rejected → pending), who may move it, the decisions and events each move
// leaves, and that a refused submission leaves neither a row nor a file.
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/server/actor";
import { connectDatabase, db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { addMember, createUser, ownerWithOrganization, refusal } from "@/test/fixtures";
import { filesOnDisk, kybUploads, storedFileIds } from "@/test/uploads";
import { decideKyb, getKyb, listKybDocuments, resubmitKyb, submitKyb } from "./service";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function reviewer() {
  const user = await createUser("Platform Reviewer");
  return db.user.update({ where: { id: user.id }, data: { platformAdmin: true } });
}

const eventsOf = async (organizationId: string) =>
  (
    await db.event.findMany({
      where: { organizationId, type: { startsWith: "kyb." } },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    })
  ).map((e) => e.type);

/** An organization whose KYB is in `status`, and its owner's actor. */
async function orgIn(status: "not_submitted" | "pending" | "approved" | "rejected") {
  const owner = await ownerWithOrganization();
  if (status === "not_submitted") return owner;
  await submitKyb(owner.actor, kybUploads());
  if (status === "pending") return owner;
  const admin = await reviewer();
  await decideKyb(
    admin.id,
    owner.org.id,
    status === "approved" ? { status } : { status, reason: "The tax certificate is unreadable" },
  );
  return owner;
}

/** Asserts the refusal left the organization's files (rows and bytes) as they were. */
async function expectNothingStored(organizationId: string, attempt: () => Promise<unknown>) {
  const [rowsBefore, diskBefore] = [await storedFileIds(organizationId), await filesOnDisk(organizationId)];
  const err = await refusal(attempt());
  expect(await storedFileIds(organizationId)).toEqual(rowsBefore);
  expect(await filesOnDisk(organizationId)).toEqual(diskBefore);
  return err;
}

beforeAll(connectDatabase); // opening and migrating the database is not part of a test's time

describe("KYB submission", () => {
  it("submits from not_submitted: pending, both documents, an event", async () => {
    const { actor, org } = await ownerWithOrganization();
    expect(await getKyb(actor)).toEqual({
      status: "not_submitted",
      submittedAt: null,
      reviewedAt: null,
      rejectionReason: null,
      documents: [],
    });

    const kyb = await submitKyb(actor, kybUploads());
    expect(kyb).toEqual({
      status: "pending",
      submittedAt: expect.stringMatching(ISO),
      reviewedAt: null,
      rejectionReason: null,
      documents: expect.any(Array),
    });
    expect(kyb.documents).toHaveLength(2);
    const byKind = Object.fromEntries(kyb.documents.map((d) => [d.kind, d]));
    expect(byKind.certificateOfIncorporation).toEqual({
      id: expect.any(String),
      kind: "certificateOfIncorporation",
      fileName: "certificateOfIncorporation.pdf",
      contentType: "application/pdf",
      size: kybUploads().certificateOfIncorporation.size,
      url: expect.stringMatching(/\/api\/files\/[\w-]+$/),
      createdAt: kyb.submittedAt,
    });
    expect(byKind.taxCertificate).toMatchObject({
      kind: "taxCertificate",
      contentType: "image/png",
      fileName: "taxCertificate.png",
    });
    expect(await getKyb(actor)).toEqual(kyb);
    expect(await storedFileIds(org.id)).toHaveLength(2);
    expect(await filesOnDisk(org.id)).toHaveLength(2);
    expect(await eventsOf(org.id)).toEqual(["kyb.submitted"]);
  });

  it.each(["pending", "approved", "rejected"] as const)("refuses a submit when %s (409), storing nothing", async (status) => {
    const { actor, org } = await orgIn(status);
    const before = await getKyb(actor);
    const err = await expectNothingStored(org.id, () => submitKyb(actor, kybUploads()));
    expect(err.code).toBe("invalid_state");
    expect(err.status).toBe(409);
    if (status === "rejected") expect(err.message).toMatch(/resubmit/);
    expect(await getKyb(actor)).toEqual(before);
  });

  it.each(["not_submitted", "pending", "approved"] as const)(
    "refuses a resubmit when %s (409), storing nothing",
    async (status) => {
      const { actor, org } = await orgIn(status);
      const before = await getKyb(actor);
      const err = await expectNothingStored(org.id, () => resubmitKyb(actor, kybUploads()));
      expect(err.code).toBe("invalid_state");
      expect(await getKyb(actor)).toEqual(before);
    },
  );

  it("resubmits after a rejection: pending again, the old documents superseded, the reason cleared", async () => {
    const { actor, org } = await orgIn("rejected");
    const rejected = await getKyb(actor);
    expect(rejected).toMatchObject({
      status: "rejected",
      rejectionReason: "The tax certificate is unreadable",
      reviewedAt: expect.stringMatching(ISO),
    });

    const kyb = await resubmitKyb(actor, kybUploads());
    expect(kyb).toMatchObject({ status: "pending", rejectionReason: null, reviewedAt: null });
    expect(kyb.documents).toHaveLength(2);
    const oldIds = rejected.documents.map((d) => d.id);
    expect(kyb.documents.map((d) => d.id).filter((id) => oldIds.includes(id))).toEqual([]);
    const listed = await listKybDocuments(actor, { limit: 100 });
    expect(listed.data.map((d) => d.id).sort()).toEqual(kyb.documents.map((d) => d.id).sort());
    // Superseded, not deleted: the reviewer's history keeps them.
    expect(await db.kybDocument.count({ where: { organizationId: org.id, supersededAt: { not: null } } })).toBe(2);
    expect(await eventsOf(org.id)).toEqual(["kyb.submitted", "kyb.rejected", "kyb.submitted"]);
  });
});

describe("KYB decisions", () => {
  it("approves a pending KYB: the decision is kept with its reviewer and time, an event written", async () => {
    const { actor, org } = await orgIn("pending");
    const admin = await reviewer();
    const before = Date.now();
    const kyb = await decideKyb(admin.id, org.id, { status: "approved" });
    expect(kyb).toMatchObject({ status: "approved", rejectionReason: null, reviewedAt: expect.stringMatching(ISO) });
    expect(await getKyb(actor)).toEqual(kyb);
    const decisions = await db.kybDecision.findMany({ where: { organizationId: org.id } });
    expect(decisions).toEqual([expect.objectContaining({ reviewerId: admin.id, decision: "approved", reason: null })]);
    expect(decisions[0]!.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(decisions[0]!.createdAt.toISOString()).toBe(kyb.reviewedAt);
    expect(await eventsOf(org.id)).toEqual(["kyb.submitted", "kyb.approved"]);
  });

  it("rejects a pending KYB with its reason", async () => {
    const { actor, org } = await orgIn("pending");
    const admin = await reviewer();
    const kyb = await decideKyb(admin.id, org.id, { status: "rejected", reason: "Blurry scan" });
    expect(kyb).toMatchObject({ status: "rejected", rejectionReason: "Blurry scan" });
    expect(await getKyb(actor)).toEqual(kyb);
    expect(await db.kybDecision.findMany({ where: { organizationId: org.id } })).toEqual([
      expect.objectContaining({ reviewerId: admin.id, decision: "rejected", reason: "Blurry scan" }),
    ]);
    expect(await eventsOf(org.id)).toEqual(["kyb.submitted", "kyb.rejected"]);
  });

  it.each(["approved", "rejected"] as const)("decides only a pending KYB: %s → 409, no decision, no event", async (status) => {
    const { org } = await orgIn(status);
    const admin = await reviewer();
    for (const decision of [{ status: "approved" as const }, { status: "rejected" as const, reason: "Again" }]) {
      expect((await refusal(decideKyb(admin.id, org.id, decision))).code).toBe("invalid_state");
    }
    expect(await db.kybDecision.count({ where: { organizationId: org.id } })).toBe(1);
    expect(await eventsOf(org.id)).toEqual(["kyb.submitted", `kyb.${status}`]);
  });

  it("has nothing to decide before a submission (404)", async () => {
    const { org } = await orgIn("not_submitted");
    const admin = await reviewer();
    expect((await refusal(decideKyb(admin.id, org.id, { status: "approved" }))).code).toBe("not_found");
    expect(await db.kyb.findUnique({ where: { organizationId: org.id } })).toBeNull();
  });
});

describe("KYB permissions and races", () => {
  it("a MEMBER cannot submit (403) but can read", async () => {
    const { org, actor: owner } = await ownerWithOrganization();
    const { actor } = await addMember(org.id, "MEMBER");
    const err = await expectNothingStored(org.id, () => submitKyb(actor, kybUploads()));
    expect(err.code).toBe("forbidden");
    expect((await refusal(resubmitKyb(actor, kybUploads()))).code).toBe("forbidden");
    expect(await getKyb(actor)).toMatchObject({ status: "not_submitted" });

    await submitKyb(owner, kybUploads());
    expect(await getKyb(actor)).toMatchObject({ status: "pending" });
    expect((await listKybDocuments(actor, { limit: 20 })).data).toHaveLength(2);
  });

  it("an ADMIN can submit", async () => {
    const { org } = await ownerWithOrganization();
    const { actor } = await addMember(org.id, "ADMIN");
    expect(await submitKyb(actor, kybUploads())).toMatchObject({ status: "pending" });
  });

  it("a read-only API key cannot submit, even its owner's", async () => {
    const { org, actor: owner } = await ownerWithOrganization();
    const key: Actor = { ...owner, apiKey: { id: "key_test", permissions: ["read"] } };
    const err = await expectNothingStored(org.id, () => submitKyb(key, kybUploads()));
    expect(err.code).toBe("insufficient_permissions");
    expect(await getKyb(key)).toMatchObject({ status: "not_submitted" });
    const writeKey: Actor = { ...owner, apiKey: { id: "key_test_rw", permissions: ["read", "write"] } };
    expect(await submitKyb(writeKey, kybUploads())).toMatchObject({ status: "pending" });
  });

  // The loser usually passes the early check and stores its bytes before the locked re-check refuses it:
  // this is the path where the bytes must be removed again.
  it("two concurrent submits: exactly one succeeds, the other is 409, two current documents, no stray file", async () => {
    const { actor, org } = await ownerWithOrganization();
    const results = await Promise.allSettled([submitKyb(actor, kybUploads()), submitKyb(actor, kybUploads())]);
    const ok = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.reason).toBeInstanceOf(AppError);
    expect((refused[0]!.reason as AppError).code).toBe("invalid_state");

    expect(await db.kybDocument.count({ where: { organizationId: org.id, supersededAt: null } })).toBe(2);
    expect(await db.kybDocument.count({ where: { organizationId: org.id } })).toBe(2);
    expect(await storedFileIds(org.id)).toHaveLength(2);
    expect(await filesOnDisk(org.id)).toEqual(await storedFileIds(org.id));
    expect(await eventsOf(org.id)).toEqual(["kyb.submitted"]);
  });
});
