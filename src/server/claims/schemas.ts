import { z } from "zod";
import { AmountNumber } from "@/lib/money";
import { pageOf, PageQuery } from "@/server/pagination";

export const CLAIM_TYPES = ["accident", "theft", "fire", "flood", "medical", "liability", "other"] as const;
export const CLAIM_STATUSES = ["submitted", "under_review", "approved", "rejected", "paid"] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

/** The review moves: submitted → under_review → approved / rejected; approved → paid. */
export const CLAIM_MOVES: Record<ClaimStatus, ClaimStatus[]> = {
  submitted: ["under_review"],
  under_review: ["approved", "rejected"],
  approved: ["paid"],
  rejected: [],
  paid: [],
};

export const CreateClaimInput = z
  .strictObject({
    policyId: z.string("must be a string").min(1).max(100),
    type: z.enum(CLAIM_TYPES, `must be one of ${CLAIM_TYPES.join(", ")}`),
    description: z.string("must be a string").trim().min(1, "must not be empty").max(2000, "must be at most 2000 characters"),
    amount: AmountNumber.describe("Amount claimed, e.g. 5000 or 5000.5"),
    email: z
      .email("must be an email address")
      .max(254)
      .transform((e) => e.toLowerCase())
      .optional()
      .describe("The customer's email; links the claim to their coverage of this policy"),
  })
  .meta({ id: "CreateClaimInput" });
export type CreateClaimInput = z.output<typeof CreateClaimInput>;

export const UpdateClaimStatusInput = z
  .strictObject({
    status: z.enum(["under_review", "approved", "rejected", "paid"], "must be under_review, approved, rejected or paid"),
    note: z.string("must be a string").trim().max(2000, "must be at most 2000 characters").optional(),
  })
  .meta({ id: "UpdateClaimStatusInput" });
export type UpdateClaimStatusInput = z.output<typeof UpdateClaimStatusInput>;

export const ListClaimsQuery = PageQuery.extend({
  status: z.enum(CLAIM_STATUSES, `must be one of ${CLAIM_STATUSES.join(", ")}`).optional(),
  policyId: z.string().max(100).optional(),
});
export type ListClaimsQuery = z.output<typeof ListClaimsQuery>;

export const Claim = z
  .object({
    id: z.string(),
    policyId: z.string(),
    coverageId: z.string().nullable(),
    type: z.enum(CLAIM_TYPES),
    description: z.string(),
    amount: z.string(),
    currency: z.string(),
    status: z.enum(CLAIM_STATUSES),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "Claim" });
export type Claim = z.infer<typeof Claim>;

export const ClaimList = pageOf(Claim, "ClaimList");

const ClaimHistoryEntry = z.object({
  id: z.string(),
  fromStatus: z.enum(CLAIM_STATUSES).nullable(),
  toStatus: z.enum(CLAIM_STATUSES),
  note: z.string().nullable(),
  by: z.string().describe("Who moved it: a member's name, or API"),
  createdAt: z.iso.datetime(),
});

/** The claim with every step of its review (dashboard). */
export const ClaimWithHistory = Claim.extend({ history: z.array(ClaimHistoryEntry) });
export type ClaimWithHistory = z.infer<typeof ClaimWithHistory>;
