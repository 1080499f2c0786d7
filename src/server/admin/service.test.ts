// Platform administration: who is a platform admin (the database decides),
// the KYB queue's order and its cursor, and the review of one business.
import { beforeAll, describe, expect, it } from "vitest";
import { connectDatabase, db } from "@/server/db/client";
import { submitKyb, resubmitKyb } from "@/server/kyb/service";
import { encodeCursor } from "@/server/pagination";
import { createUser, ownerWithOrganization, refusal } from "@/test/fixtures";
import { kybUploads } from "@/test/uploads";
import { KybQueueInput, type KybQueueItem } from "@/lib/schemas/admin";
import { approveKyb, isPlatformAdmin, kybQueue, kybReview, rejectKyb, requirePlatformAdmin, type PlatformAdmin } from "./service";

async function platformAdmin(
  name = "Platform Reviewer",
): Promise<{ admin: PlatformAdmin; user: { id: string; name: string; email: string } }> {
  const user = await db.user.update({ where: { id: (await createUser(name)).id }, data: { platformAdmin: true } });
  return { admin: await requirePlatformAdmin(user.id), user };
}

/** A business whose KYB was submitted at `submittedAt`, then left in `status`. */
async function submitted(submittedAt: Date, status: "pending" | "approved" | "rejected", admin: PlatformAdmin) {
  const { actor, org } = await ownerWithOrganization();
  await submitKyb(actor, kybUploads());
  if (status === "approved") await approveKyb(admin, org.id);
  if (status === "rejected") await rejectKyb(admin, { organizationId: org.id, reason: "Unreadable scan" });
  // The submission time is the queue's order: set it outright (a test cannot wait years).
  await db.kyb.update({ where: { organizationId: org.id }, data: { submittedAt } });
  return org.id;
}

/** Every page of the queue, in order. */
async function walk(admin: PlatformAdmin, input: { status?: "pending" | "approved" | "rejected"; limit: number }) {
  const rows: KybQueueItem[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 10_000; pages++) {
    const page = await kybQueue(admin, KybQueueInput.parse({ ...input, cursor }));
    expect(page.data.length).toBeLessThanOrEqual(input.limit);
    rows.push(...page.data);
    if (!page.nextCursor) return rows;
    cursor = page.nextCursor;
  }
  throw new Error("the queue never ended");
}

const rankOf = (r: KybQueueItem) => (r.status === "pending" ? 0 : 1);

/** Pending first, then oldest submission first, then organization id: strictly increasing. */
function expectQueueOrder(rows: KybQueueItem[]) {
  for (let i = 1; i < rows.length; i++) {
    const [a, b] = [rows[i - 1]!, rows[i]!];
    const key = (r: KybQueueItem) => [rankOf(r), r.submittedAt ?? "", r.organizationId] as const;
    const [ka, kb] = [key(a), key(b)];
    const ordered = ka[0] !== kb[0] ? ka[0] < kb[0] : ka[1] !== kb[1] ? ka[1] < kb[1] : ka[2] < kb[2];
    expect(ordered, `${JSON.stringify(a)} before ${JSON.stringify(b)}`).toBe(true);
  }
}

const at = (iso: string) => new Date(iso);

beforeAll(connectDatabase); // opening and migrating the database is not part of a test's time

describe("platform admins", () => {
  it("are decided by the database flag, read on every call", async () => {
    const user = await createUser();
    expect(await isPlatformAdmin(user.id)).toBe(false);
    expect((await refusal(requirePlatformAdmin(user.id))).code).toBe("not_found");
    await db.user.update({ where: { id: user.id }, data: { platformAdmin: true } });
    expect(await isPlatformAdmin(user.id)).toBe(true);
    expect(await requirePlatformAdmin(user.id)).toEqual({ userId: user.id });
    await db.user.update({ where: { id: user.id }, data: { platformAdmin: false } });
    expect(await isPlatformAdmin(user.id)).toBe(false);
    expect(await isPlatformAdmin("usr_nobody")).toBe(false);
  });

  it("an organization's owner is not one", async () => {
    const { user } = await ownerWithOrganization();
    expect(await isPlatformAdmin(user.id)).toBe(false);
  });
});

describe("the KYB queue", () => {
  it("lists pending first, oldest first, across pages without duplicates or gaps", async () => {
    const { admin } = await platformAdmin();
    // Long ago, so these come before any other test's submissions in their rank.
    const tie = at("2001-03-01T00:00:00.000Z");
    const mine = {
      pendingNew: await submitted(at("2001-05-01T00:00:00.000Z"), "pending", admin),
      approvedOld: await submitted(at("2001-01-01T00:00:00.000Z"), "approved", admin),
      pendingTieA: await submitted(tie, "pending", admin),
      rejected: await submitted(at("2001-02-01T00:00:00.000Z"), "rejected", admin),
      pendingOld: await submitted(at("2001-02-15T00:00:00.000Z"), "pending", admin),
      pendingTieB: await submitted(tie, "pending", admin),
      pendingTieC: await submitted(tie, "pending", admin),
    };
    const ties = [mine.pendingTieA, mine.pendingTieB, mine.pendingTieC].sort();
    const notSubmitted = (await ownerWithOrganization()).org.id;
    // A row left at not_submitted (as a refused first submission's lock row would be) is not in the queue.
    await db.kyb.create({ data: { organizationId: notSubmitted, status: "not_submitted" } });
    const ids = new Set<string>(Object.values(mine));

    for (const limit of [1, 2, 3, 100]) {
      const all = await walk(admin, { limit });
      expect(new Set(all.map((r) => r.organizationId)).size).toBe(all.length);
      expectQueueOrder(all);
      expect(all.map((r) => r.status)).not.toContain("not_submitted");
      expect(all.map((r) => r.organizationId)).not.toContain(notSubmitted);
      expect(all.map((r) => r.organizationId).filter((id) => ids.has(id))).toEqual([
        mine.pendingOld,
        ...ties,
        mine.pendingNew,
        mine.approvedOld,
        mine.rejected,
      ]);
    }

    const pending = await walk(admin, { status: "pending", limit: 2 });
    expect(pending.every((r) => r.status === "pending")).toBe(true);
    expect(pending.slice(0, 5).map((r) => r.organizationId)).toEqual([mine.pendingOld, ...ties, mine.pendingNew]);
    expectQueueOrder(pending);

    const rejected = await walk(admin, { status: "rejected", limit: 1 });
    expect(rejected.every((r) => r.status === "rejected")).toBe(true);
    expect(rejected[0]?.organizationId).toBe(mine.rejected);
  });

  it("shows each business with its contact and times", async () => {
    const { admin } = await platformAdmin();
    const orgId = await submitted(at("2002-06-01T10:00:00.000Z"), "approved", admin);
    const org = await db.organization.findUniqueOrThrow({ where: { id: orgId } });
    const kyb = await db.kyb.findUniqueOrThrow({ where: { organizationId: orgId } });
    const row = (await walk(admin, { status: "approved", limit: 100 })).find((r) => r.organizationId === orgId);
    expect(row).toEqual({
      organizationId: orgId,
      organizationName: org.name,
      organizationEmail: org.email,
      status: "approved",
      submittedAt: "2002-06-01T10:00:00.000Z",
      reviewedAt: kyb.reviewedAt!.toISOString(),
    });
  });

  it("refuses a cursor it did not issue with 400 invalid_query", async () => {
    const { admin } = await platformAdmin();
    const forged = [
      "nonsense",
      encodeCursor({ createdAt: new Date(), id: "abc" }), // another list's cursor
      Buffer.from("2|2026-01-01T00:00:00.000Z|abc").toString("base64url"),
      Buffer.from("0|-271821-04-20T00:00:00.000Z|abc").toString("base64url"),
      Buffer.from("0|2026-02-31T00:00:00.000Z|abc").toString("base64url"),
      Buffer.from("0|2026-01-01T00:00:00.000Z|a\u0000b").toString("base64url"),
      Buffer.from("0|2026-01-01T00:00:00.000Z|a'; drop table kyb; --").toString("base64url"),
    ];
    for (const cursor of forged) {
      const err = await refusal(kybQueue(admin, KybQueueInput.parse({ limit: 5, cursor })));
      expect(err.code, cursor).toBe("invalid_query");
      expect(err.status).toBe(400);
    }
  });
});

describe("the KYB review", () => {
  it("shows the business, its current documents and every decision, newest first", async () => {
    const first = await platformAdmin("First Reviewer");
    const second = await platformAdmin("Second Reviewer");
    const { actor, org } = await ownerWithOrganization();
    await submitKyb(actor, kybUploads());

    const pending = await kybReview(first.admin, org.id);
    expect(pending).toEqual({
      organization: { id: org.id, name: org.name, email: org.email, createdAt: org.createdAt },
      kyb: expect.objectContaining({ status: "pending", rejectionReason: null }),
      decisions: [],
    });
    expect(pending.kyb.documents).toHaveLength(2);

    const rejected = await rejectKyb(first.admin, { organizationId: org.id, reason: "The tax certificate is cut off" });
    expect(rejected).toMatchObject({ status: "rejected", rejectionReason: "The tax certificate is cut off" });
    const resubmitted = await resubmitKyb(actor, kybUploads());
    const approved = await approveKyb(second.admin, org.id);
    expect(approved).toMatchObject({ status: "approved" });

    const review = await kybReview(second.admin, org.id);
    expect(review.kyb).toEqual(approved);
    expect(review.kyb.documents.map((d) => d.id).sort()).toEqual(resubmitted.documents.map((d) => d.id).sort());
    expect(review.decisions).toEqual([
      {
        id: expect.any(String),
        decision: "approved",
        reason: null,
        reviewer: { name: "Second Reviewer", email: second.user.email },
        createdAt: approved.reviewedAt,
      },
      {
        id: expect.any(String),
        decision: "rejected",
        reason: "The tax certificate is cut off",
        reviewer: { name: "First Reviewer", email: first.user.email },
        createdAt: rejected.reviewedAt,
      },
    ]);
  });

  it("is not found for a business that has not submitted, or none at all", async () => {
    const { admin } = await platformAdmin();
    const { org } = await ownerWithOrganization();
    expect((await refusal(kybReview(admin, org.id))).code).toBe("not_found");
    await db.kyb.create({ data: { organizationId: org.id, status: "not_submitted" } });
    expect((await refusal(kybReview(admin, org.id))).code).toBe("not_found");
    expect((await refusal(kybReview(admin, "org_missing"))).code).toBe("not_found");
    expect((await refusal(approveKyb(admin, "org_missing"))).code).toBe("not_found");
  });

  it("decides only a pending KYB (409 otherwise)", async () => {
    const { admin } = await platformAdmin();
    const orgId = await submitted(new Date(), "approved", admin);
    expect((await refusal(approveKyb(admin, orgId))).code).toBe("invalid_state");
    expect((await refusal(rejectKyb(admin, { organizationId: orgId, reason: "Changed my mind" }))).code).toBe("invalid_state");
    expect((await kybReview(admin, orgId)).decisions).toHaveLength(1);
  });
});
