// Filing a claim with its evidence (fileClaim, through submitClaim — the REST
// API, JSON or multipart, and the dashboard — and the portal's
// filePortalClaim): the claim, its files and its `claim.submitted` event,
// which lists them, commit together; a file that fails leaves no claim, no
// event, no file row and no bytes.
import { describe, expect, it } from "vitest";
import type { Actor } from "@/server/actor";
import { db } from "@/server/db/client";
import { UploadedFile } from "@/server/files/multipart";
import { CreateClaimInput } from "@/lib/schemas/claims";
import { CreatePolicyInput } from "@/lib/schemas/policies";
import { createPolicy } from "@/server/policies/service";
import { codeOf, ownerWithOrganization } from "@/test/fixtures";
import { filesOnDisk, PDF_BYTES, PNG_BYTES, storedFileIds, upload } from "@/test/uploads";
import { getClaimAttachments, MAX_CLAIM_ATTACHMENTS } from "./attachments";
import { submitClaim } from "./service";

async function insurer() {
  const owner = await ownerWithOrganization();
  const policy = await createPolicy(
    owner.actor,
    CreatePolicyInput.parse({ name: "Shop cover", type: "property", duration: "yearly", price: "100.00" }),
  );
  return { ...owner, policy };
}

const input = (policyId: string) =>
  CreateClaimInput.parse({ policyId, type: "fire", description: "Kitchen fire", amount: 900, email: "ada@example.test" });

/** Everything a filing could leave behind in the organization. */
async function leftIn(organizationId: string) {
  return {
    claims: await db.claim.count({ where: { organizationId } }),
    history: await db.claimStatusChange.count({ where: { organizationId } }),
    attachments: await db.claimAttachment.count({ where: { organizationId } }),
    events: await db.event.count({ where: { organizationId } }),
    fileRows: await storedFileIds(organizationId),
    bytes: await filesOnDisk(organizationId),
  };
}
const NOTHING = { claims: 0, history: 0, attachments: 0, events: 0, fileRows: [], bytes: [] };

describe("filing a claim with its evidence", () => {
  it("the claim, its files and its claim.submitted event commit together; the event lists the attachments", async () => {
    const { actor, org, policy } = await insurer();
    const claim = await submitClaim(actor, input(policy.id), [
      upload("file1", PNG_BYTES(), "damage.png"),
      upload("file2", PDF_BYTES(), "quote.pdf"),
    ]);
    // The answer is the Claim, as for a JSON filing.
    expect(Object.keys(claim).sort()).toEqual(
      [
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
      ].sort(),
    );
    const attachments = await getClaimAttachments(actor, claim.id);
    expect(attachments.map((a) => [a.fileName, a.contentType])).toEqual([
      ["damage.png", "image/png"],
      ["quote.pdf", "application/pdf"],
    ]);
    // A member in the dashboard: the files' source says so.
    const rows = await db.claimAttachment.findMany({ where: { claimId: claim.id } });
    expect(rows.map((r) => r.source)).toEqual(["dashboard", "dashboard"]);

    const events = await db.event.findMany({ where: { organizationId: org.id } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "claim.submitted", subject: claim.id });
    expect(events[0]!.data).toEqual({ ...claim, attachments });
    const left = await leftIn(org.id);
    expect(left).toMatchObject({ claims: 1, history: 1, attachments: 2, events: 1 });
    expect(left.bytes).toEqual(rows.map((r) => r.fileId).sort());
  });

  it("without files: the event lists none; by an API key the source is api", async () => {
    const { actor, org, policy } = await insurer();
    const claim = await submitClaim(actor, input(policy.id));
    const event = await db.event.findFirstOrThrow({ where: { organizationId: org.id, subject: claim.id } });
    expect(event.data).toEqual({ ...claim, attachments: [] });

    const key: Actor = { ...actor, apiKey: { id: "key_test", permissions: ["read", "write"] } };
    const viaKey = await submitClaim(key, input(policy.id), [upload("file1", PDF_BYTES(), "report.pdf")]);
    expect((await db.claimAttachment.findFirstOrThrow({ where: { claimId: viaKey.id } })).source).toBe("api");
  });

  it("a file that fails leaves no claim, no event, no file row and no bytes", async () => {
    const { actor, org, policy } = await insurer();
    // The database refuses the second file (a NUL in its name; the multipart reader never lets one through).
    const refused = new UploadedFile("file2", "evil\u0000.pdf", "application/pdf", PDF_BYTES());
    await expect(submitClaim(actor, input(policy.id), [upload("file1", PNG_BYTES(), "ok.png"), refused])).rejects.toThrow();
    expect(await leftIn(org.id)).toEqual(NOTHING);
  });

  it(`more than ${MAX_CLAIM_ATTACHMENTS} files → validation_failed before anything is stored`, async () => {
    const { actor, org, policy } = await insurer();
    const six = Array.from({ length: MAX_CLAIM_ATTACHMENTS + 1 }, (_, i) => upload(`file${i + 1}`, PNG_BYTES(), `p${i}.png`));
    expect(await codeOf(submitClaim(actor, input(policy.id), six))).toBe("validation_failed");
    expect(await leftIn(org.id)).toEqual(NOTHING);
  });

  it("another organization's policy → not_found, nothing stored on either side", async () => {
    const mine = await insurer();
    const theirs = await insurer();
    expect(await codeOf(submitClaim(mine.actor, input(theirs.policy.id), [upload("file1", PNG_BYTES())]))).toBe("not_found");
    expect(await leftIn(mine.org.id)).toEqual(NOTHING);
    expect(await leftIn(theirs.org.id)).toEqual(NOTHING);
  });

  it("a read-only key may not file, and nothing is stored", async () => {
    const { actor, org, policy } = await insurer();
    const readKey: Actor = { ...actor, apiKey: { id: "key_ro", permissions: ["read"] } };
    expect(await codeOf(submitClaim(readKey, input(policy.id), [upload("file1", PNG_BYTES())]))).toBe(
      "insufficient_permissions",
    );
    expect(await leftIn(org.id)).toEqual(NOTHING);
  });
});
