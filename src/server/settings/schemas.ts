import { M, z } from "@/lib/messages";

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
          .number(M.between(1, 100_000))
          .int(M.between(1, 100_000))
          .min(1, M.between(1, 100_000))
          .max(100_000, M.between(1, 100_000))
          .optional(),
      })
      .optional(),
  })
  .meta({ id: "UpdateSettingsInput" });
export type UpdateSettingsInput = z.infer<typeof UpdateSettingsInput>;
