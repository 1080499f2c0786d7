import { z } from "@/lib/messages";

/** What "Load sample data" left in the test data (created: false when it was already there). */
export const SampleDataResult = z.object({
  created: z.boolean().describe("false: the test data already had policies, nothing was added"),
  policies: z.number().int(),
  payments: z.number().int(),
  claims: z.number().int(),
  webhooks: z.number().int(),
});
export type SampleDataResult = z.infer<typeof SampleDataResult>;
