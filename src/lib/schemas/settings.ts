import { M, z } from "@/lib/messages";
import { COOLING_OFF_DAYS_MAX } from "@/lib/schemas/coverages";
import { FileField } from "@/lib/schemas/files";

/** Renewal reminders: at most 5 distinct days, each 1–90. */
export const REMINDER_DAYS_MAX = 5;
export const REMINDER_DAY_MAX = 90;
export const DEFAULT_REMINDER_DAYS = [14, 3];

const ReminderDay = z.number(M.reminderDay).int(M.reminderDay).min(1, M.reminderDay).max(REMINDER_DAY_MAX, M.reminderDay);
export const ReminderDays = z
  .array(ReminderDay, "Give a list of days, like [14, 3]")
  .max(REMINDER_DAYS_MAX, M.listMax(REMINDER_DAYS_MAX))
  .refine((days) => new Set(days).size === days.length, M.noRepeats("day"))
  .describe(
    "Days before a coverage ends on which its policyholder is emailed a renewal reminder, each once per period (whole numbers 1–90, at most 5; empty: none)",
  );

export const HexColor = z
  .string(M.hexColor)
  .regex(/^#[0-9a-fA-F]{6}$/, M.hexColor)
  .transform((c) => c.toLowerCase());

export const Logo = z
  .object({
    fileName: z.string(),
    contentType: z.enum(["image/png", "image/jpeg"]),
    size: z.number().int().describe("Bytes of the logo as kept: the upload fitted inside 512 × 512 pixels"),
    url: z.url().describe("Where the file is served: a member's session or an API key (live or test) of this organization"),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Logo" });
export type Logo = z.infer<typeof Logo>;

export const Settings = z
  .object({
    notifications: z.object({
      email: z.boolean().describe("The team's notices by email"),
      sms: z.boolean().describe("Every SMS of the organization: the team's (to verified phones) and the policyholders'"),
      digest: z.boolean().describe("Past 20 payment notices in a day, the rest of the day's payments come in one digest the next morning"),
    }),
    api: z.object({ rateLimit: z.number().int().describe("Requests per minute for the organization, over all its keys") }),
    reminders: z.object({ daysBefore: z.array(z.number().int()).describe("Largest first; empty: no reminders") }),
    coverage: z.object({
      coolingOffDays: z
        .number()
        .int()
        .describe("Days from a period's start within which a cancellation refunds the whole premium of the period"),
    }),
    branding: z
      .object({
        accentColor: z.string().nullable().describe("#rrggbb, or null for Coverdesk's own"),
        logo: Logo.nullable(),
      })
      .describe("What policyholders see on the portal and their certificates"),
  })
  .meta({ id: "Settings" });
export type Settings = z.infer<typeof Settings>;

export const UpdateSettingsInput = z
  .strictObject({
    notifications: z
      .strictObject({ email: z.boolean().optional(), sms: z.boolean().optional(), digest: z.boolean().optional() })
      .optional(),
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
    reminders: z.strictObject({ daysBefore: ReminderDays.optional() }).optional(),
    coverage: z
      .strictObject({
        coolingOffDays: z
          .number(M.between(0, COOLING_OFF_DAYS_MAX))
          .int(M.between(0, COOLING_OFF_DAYS_MAX))
          .min(0, M.between(0, COOLING_OFF_DAYS_MAX))
          .max(COOLING_OFF_DAYS_MAX, M.between(0, COOLING_OFF_DAYS_MAX))
          .optional()
          .describe("0–30 (default 14): days from a period's start within which a cancellation refunds the whole premium"),
      })
      .optional(),
    branding: z
      .strictObject({
        accentColor: HexColor.nullable().optional().describe("#rrggbb (e.g. #1d4ed8); null for Coverdesk's own"),
      })
      .optional(),
  })
  .meta({ id: "UpdateSettingsInput" });
export type UpdateSettingsInput = z.output<typeof UpdateSettingsInput>;

/** Multipart fields of a logo upload. */
export const UploadLogoInput = z.strictObject({ file: FileField }).meta({ id: "UploadLogoInput" });
export type UploadLogoInput = z.output<typeof UploadLogoInput>;
