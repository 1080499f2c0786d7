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

/** Where the test data's sample set stands (the dashboard offers to finish an interrupted load). */
export const SampleDataState = z.object({
  state: z
    .enum(["none", "loading", "interrupted", "completed"])
    .describe("interrupted: a load stopped part-way (the next load finishes it); loading: a load is running"),
});
export type SampleDataState = z.infer<typeof SampleDataState>;
