import { z } from "@/lib/messages";
import { pageOf, PageQuery } from "@/lib/schemas/pagination";

export const COVERAGE_STATUSES = ["active", "expired"] as const;
export type CoverageStatus = (typeof COVERAGE_STATUSES)[number];

export const Coverage = z
  .object({
    id: z.string(),
    policyId: z.string(),
    customerEmail: z.string(),
    status: z.enum(COVERAGE_STATUSES).describe("active while endsAt is in the future; expired from endsAt on"),
    startsAt: z.iso.datetime(),
    endsAt: z.iso.datetime(),
    renewalCount: z.number().int(),
    certificateNumber: z
      .string()
      .describe("Printed on its certificate of insurance; anyone can check it at `/verify/{certificateNumber}`"),
  })
  .meta({ id: "Coverage" });
export type Coverage = z.infer<typeof Coverage>;

export const CoverageList = pageOf(Coverage, "CoverageList");

export const ListCoveragesQuery = PageQuery.extend({
  policyId: z.string().max(100).optional(),
  status: z.enum(COVERAGE_STATUSES).optional(),
});
export type ListCoveragesQuery = z.output<typeof ListCoveragesQuery>;
