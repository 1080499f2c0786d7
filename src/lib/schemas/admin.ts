import { z } from "@/lib/messages";
import { Kyb } from "@/lib/schemas/kyb";
import { pageOf } from "@/lib/schemas/pagination";

/** The statuses the queue shows: everything once submitted. */
export const QUEUE_STATUSES = ["pending", "approved", "rejected"] as const;

// Not strict: tRPC's infinite queries add `direction` beside the cursor.
export const KybQueueInput = z
  .object({
    status: z.enum(QUEUE_STATUSES).optional().describe("Only organizations in this status; all submitted ones by default"),
    limit: z.number().int().min(1).max(100).default(20).describe("Page size, 1–100"),
    // Checked by the service (400 `invalid_query` for a cursor it did not issue).
    cursor: z.string().max(300).nullish().describe("`nextCursor` from the previous page"),
  })
  .meta({ id: "KybQueueInput" });
export type KybQueueInput = z.output<typeof KybQueueInput>;

export const KybQueueItem = z
  .object({
    organizationId: z.string(),
    organizationName: z.string(),
    organizationEmail: z.string().nullable(),
    status: z.enum(QUEUE_STATUSES),
    submittedAt: z.iso.datetime().nullable(),
    reviewedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: "KybQueueItem" });
export type KybQueueItem = z.output<typeof KybQueueItem>;

export const KybQueuePage = pageOf(KybQueueItem, "KybQueuePage");

export const OrganizationRef = z.strictObject({ organizationId: z.string().min(1).max(100) }).meta({ id: "OrganizationRef" });
export type OrganizationRef = z.output<typeof OrganizationRef>;

export const KybDecisionView = z
  .object({
    id: z.string(),
    decision: z.enum(["approved", "rejected"]),
    reason: z.string().nullable(),
    reviewer: z.object({ name: z.string(), email: z.string() }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "KybDecisionView" });
export type KybDecisionView = z.output<typeof KybDecisionView>;

export const KybReview = z
  .object({
    organization: z.object({
      id: z.string(),
      name: z.string(),
      email: z.string().nullable(),
      createdAt: z.iso.datetime(),
    }),
    kyb: Kyb,
    decisions: z.array(KybDecisionView).describe("Every decision on this organization's KYB, newest first (at most 100)"),
  })
  .meta({ id: "KybReview" });
export type KybReview = z.output<typeof KybReview>;
