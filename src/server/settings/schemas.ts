import { z } from "zod";

export const Settings = z
  .object({
    notifications: z.object({ email: z.boolean(), sms: z.boolean() }),
    api: z.object({ rateLimit: z.number().int().describe("Requests per minute for the organization, over all its keys") }),
  })
  .meta({ id: "Settings" });
export type Settings = z.infer<typeof Settings>;

export const UpdateSettingsInput = z
  .strictObject({
    notifications: z.strictObject({ email: z.boolean().optional(), sms: z.boolean().optional() }).optional(),
    api: z
      .strictObject({
        rateLimit: z
          .number("must be a number")
          .int("must be a whole number")
          .min(1, "must be at least 1")
          .max(100_000, "must be at most 100000")
          .optional(),
      })
      .optional(),
  })
  .meta({ id: "UpdateSettingsInput" });
export type UpdateSettingsInput = z.infer<typeof UpdateSettingsInput>;
