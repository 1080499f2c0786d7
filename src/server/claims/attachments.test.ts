// Claim attachments: at most five per claim however many uploads race for the
// last places (the claim's row lock), another organization's claim is not
// found and leaves no file behind, one query lists many claims' attachments,
// and where each came from is recorded.
import { describe, expect, it } from "vitest";
import type { Actor } from "@/server/actor";
import { db } from "@/server/db/client";
import { withStoredFiles } from "@/server/files/service";
import { CreatePolicyInput } from "@/lib/schemas/policies";
import { createPolicy } from "@/server/policies/service";
import { addMember, codeOf, ownerWithOrganization } from "@/test/fixtures";
import { filesOnDisk, JPEG_BYTES, PDF_BYTES, PNG_BYTES, storedFileIds, upload } from "@/test/uploads";
import {
  addClaimAttachments,
  attachFilesToClaim,
  getClaimAttachments,
  listClaimAttachments,
  MAX_CLAIM_ATTACHMENTS,
} from "./attachments";
import { CreateClaimInput } from "@/lib/schemas/claims";
import { getClaimDetail, submitClaim } from "./service";

/** An owner, their organization and a claim on a fresh policy. */
async function claimOfNewOrganization() {
  const owner = await ownerWithOrganization();
  const claim = await newClaim(owner.actor);
  return { ...owner, claim };
}

async function newClaim(actor: Actor) {
  const policy = await createPolicy(
    actor,
    CreatePolicyInput.parse({ name: "Shop cover", type: "property", duration: "yearly", price: "100.00" }),
  );
  return submitClaim(
    actor,
    CreateClaimInput.parse({ policyId: policy.id, type: "fire", description: "Kitchen fire", amount: 900 }),
  );
}

const photo = (name = "photo.png") => upload("file", PNG_BYTES(), name);
const report = (name = "report.pdf") => upload("file", PDF_BYTES(), name);

/** The organization's files, as rows and as bytes on disk. */
const filesOf = async (organizationId: string) => ({
  rows: await storedFileIds(organizationId),
  disk: await filesOnDisk(organizationId),
});

describe("addClaimAttachments", () => {
  it("stores the file and answers the attachment with its file's name, type, size and url; the row records the source", async () => {
    const { actor, claim, org } = await claimOfNewOrganization();
    const [a] = await addClaimAttachments(actor, claim.id, [photo("damage.png")], "dashboard");
    expect(a).toMatchObject({ claimId: claim.id, fileName: "damage.png", contentType: "image/png", size: PNG_BYTES().length });
    const row = await db.claimAttachment.findUniqueOrThrow({ where: { id: a!.id }, include: { file: true } });
    expect(row).toMatchObject({ organizationId: org.id, claimId: claim.id, source: "dashboard" });
    expect(a!.url).toMatch(new RegExp(`/api/files/${row.fileId}$`));
    expect((await filesOf(org.id)).disk).toEqual([row.fileId]);

    const [b] = await addClaimAttachments(actor, claim.id, [report()], "api");
    expect((await db.claimAttachment.findUniqueOrThrow({ where: { id: b!.id } })).source).toBe("api");
    expect(await getClaimAttachments(actor, claim.id)).toEqual([a, b]);
  });

  it(`the ${MAX_CLAIM_ATTACHMENTS + 1}th → 409 attachment_limit, nothing stored; other claims are not affected`, async () => {
    const { actor, claim, org } = await claimOfNewOrganization();
    for (let i = 0; i < MAX_CLAIM_ATTACHMENTS; i++) await addClaimAttachments(actor, claim.id, [photo(`p${i}.png`)], "api");
    const before = await filesOf(org.id);
    expect(before.rows).toHaveLength(MAX_CLAIM_ATTACHMENTS);
    expect(await codeOf(addClaimAttachments(actor, claim.id, [report()], "api"))).toBe("attachment_limit");
    await expect(addClaimAttachments(actor, claim.id, [report()], "dashboard")).rejects.toThrow(
      /^A claim can have at most 5 attachments$/,
    );
    expect(await filesOf(org.id)).toEqual(before);
    // Several files at once that would pass the limit: none is kept.
    const other = await newClaim(actor);
    await addClaimAttachments(actor, other.id, [photo(), photo()], "api");
    const three = [report(), photo(), upload("file", JPEG_BYTES())];
    expect(await codeOf(addClaimAttachments(actor, other.id, [...three, report()], "api"))).toBe("attachment_limit");
    expect(await addClaimAttachments(actor, other.id, three, "api")).toHaveLength(3);
    expect((await getClaimAttachments(actor, other.id)).length).toBe(5);
  });

  it(`concurrent uploads never take a claim past ${MAX_CLAIM_ATTACHMENTS}; the refused leave no file`, async () => {
    const { actor, claim, org } = await claimOfNewOrganization();
    await addClaimAttachments(actor, claim.id, [photo()], "api");
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => addClaimAttachments(actor, claim.id, [report(`r${i}.pdf`)], "api")),
    );
    const refused = results.filter((r) => r.status === "rejected");
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(MAX_CLAIM_ATTACHMENTS - 1);
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toMatchObject({ code: "attachment_limit" });
    expect(await db.claimAttachment.count({ where: { claimId: claim.id } })).toBe(MAX_CLAIM_ATTACHMENTS);
    const files = await filesOf(org.id);
    expect(files.rows).toHaveLength(MAX_CLAIM_ATTACHMENTS);
    expect(files.disk).toEqual(files.rows);
  });

  it("concurrent attachFilesToClaim in the callers' own transactions (two files each) stop at the limit", async () => {
    // The path the portal takes: withStoredFiles' transaction, past any check made before it.
    // On PostgreSQL the six transactions are all open before any attaches, and each stays open a while after:
    // without the claim's row lock every one of them would count none and attach.
    // (The embedded database runs one transaction at a time.)
    const { claim, org } = await claimOfNewOrganization();
    const attempts = 6;
    let arrived = 0;
    let allArrived: () => void = () => {};
    const together = new Promise<void>((r) => (allArrived = r));
    const overlap = !!process.env.DATABASE_URL;
    const results = await Promise.allSettled(
      Array.from({ length: attempts }, () =>
        withStoredFiles(org.id, [photo(), report()], async (tx, files) => {
          if (overlap) {
            if (++arrived === attempts) allArrived();
            await together;
          }
          const rows = await attachFilesToClaim(tx, org.id, claim.id, files, "portal");
          if (overlap) await new Promise((r) => setTimeout(r, 100));
          return rows;
        }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(2);
    const rows = await db.claimAttachment.findMany({ where: { claimId: claim.id } });
    expect(rows).toHaveLength(4);
    expect(new Set(rows.map((r) => r.source))).toEqual(new Set(["portal"]));
    const files = await filesOf(org.id);
    expect(files.rows).toEqual(rows.map((r) => r.fileId).sort());
    expect(files.disk).toEqual(files.rows);
  });

  it("another organization's claim → not_found, and no file row or bytes are left (before or inside the transaction)", async () => {
    const a = await claimOfNewOrganization();
    const b = await claimOfNewOrganization();
    await addClaimAttachments(b.actor, b.claim.id, [photo()], "api");
    const [beforeA, beforeB] = [await filesOf(a.org.id), await filesOf(b.org.id)];
    expect(await codeOf(addClaimAttachments(a.actor, b.claim.id, [report()], "api"))).toBe("not_found");
    expect(
      await codeOf(
        withStoredFiles(a.org.id, [report()], (tx, files) => attachFilesToClaim(tx, a.org.id, b.claim.id, files, "portal")),
      ),
    ).toBe("not_found");
    expect(await codeOf(addClaimAttachments(a.actor, "no-such-claim", [report()], "api"))).toBe("not_found");
    expect(await codeOf(getClaimAttachments(a.actor, b.claim.id))).toBe("not_found");
    expect([await filesOf(a.org.id), await filesOf(b.org.id)]).toEqual([beforeA, beforeB]);
    expect(await db.claimAttachment.count({ where: { claimId: b.claim.id } })).toBe(1);
  });

  it("any member may add (manage); a read-only key may not, and nothing is stored", async () => {
    const { org, claim } = await claimOfNewOrganization();
    const member = await addMember(org.id, "MEMBER");
    expect(await addClaimAttachments(member.actor, claim.id, [photo()], "dashboard")).toHaveLength(1);
    const before = await filesOf(org.id);
    const readOnly: Actor = { ...member.actor, apiKey: { id: "key_ro", permissions: ["read"] } };
    expect(await codeOf(addClaimAttachments(readOnly, claim.id, [photo()], "api"))).toBe("insufficient_permissions");
    expect(await filesOf(org.id)).toEqual(before);
    expect(await getClaimAttachments(readOnly, claim.id)).toHaveLength(1);
  });
});

describe("listClaimAttachments", () => {
  it("groups many claims' attachments by claim, oldest first, every claim asked for a key; only the organization's", async () => {
    const { actor, org } = await claimOfNewOrganization();
    const [c1, c2, c3] = [await newClaim(actor), await newClaim(actor), await newClaim(actor)];
    const first = (await addClaimAttachments(actor, c1.id, [photo("1.png")], "api"))[0]!;
    const second = (await addClaimAttachments(actor, c2.id, [report("2.pdf")], "dashboard"))[0]!;
    const third = (await addClaimAttachments(actor, c1.id, [report("3.pdf")], "portal"))[0]!;
    const stranger = await claimOfNewOrganization();
    await addClaimAttachments(stranger.actor, stranger.claim.id, [photo()], "api");

    const map = await listClaimAttachments(org.id, [c1.id, c2.id, c3.id, stranger.claim.id]);
    expect(map.get(c1.id)).toEqual([first, third]);
    expect(map.get(c2.id)).toEqual([second]);
    expect(map.get(c3.id)).toEqual([]);
    expect(map.get(stranger.claim.id)).toEqual([]);
    expect((await listClaimAttachments(org.id, [])).size).toBe(0);
  });

  it("the dashboard's claim detail carries the attachments", async () => {
    const { actor, claim } = await claimOfNewOrganization();
    expect((await getClaimDetail(actor, claim.id)).attachments).toEqual([]);
    const added = await addClaimAttachments(actor, claim.id, [photo(), report()], "dashboard");
    expect((await getClaimDetail(actor, claim.id)).attachments).toEqual(added);
  });
});
