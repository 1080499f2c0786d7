import { z } from "@/lib/messages";
import { pageOf, PageQuery } from "@/server/pagination";

export const COVERAGE_STATUSES = ["active", "expired"] as const;

export const Coverage = z
  .object({
    id: z.string(),
    policyId: z.string(),
    customerEmail: z.string(),
    status: z.enum(COVERAGE_STATUSES).describe("active until endsAt"),
    startsAt: z.iso.datetime(),
    endsAt: z.iso.datetime(),
    renewalCount: z.number().int(),
  })
  .meta({ id: "Coverage" });
export type Coverage = z.infer<typeof Coverage>;

export const CoverageList = pageOf(Coverage, "CoverageList");

export const ListCoveragesQuery = PageQuery.extend({
  policyId: z.string().max(100).optional(),
  status: z.enum(COVERAGE_STATUSES).optional(),
});
export type ListCoveragesQuery = z.output<typeof ListCoveragesQuery>;
