import { M, z } from "@/lib/messages";

const M_DAYS = M.between(-365, 365);

export const REMINDER_MAIL_STATUSES = ["queued", "sent", "failed"] as const;

/** A renewal reminder as the customer's page lists it: the coverage, the period, and how its mail fared. */
export const CustomerReminder = z.object({
  id: z.string(),
  coverageId: z.string(),
  policyId: z.string(),
  policyName: z.string(),
  daysBefore: z.number().int(),
  periodEndsAt: z.iso.datetime(),
  createdAt: z.iso.datetime(),
  mail: z.object({
    status: z.enum(REMINDER_MAIL_STATUSES),
    sentAt: z.iso.datetime().nullable(),
    /** The last error of a failed or retrying mail. */
    error: z.string().nullable(),
  }),
});
export type CustomerReminder = z.infer<typeof CustomerReminder>;
export const CustomerReminderList = z.array(CustomerReminder);

/** The test clock: the coverage ends this many days from now (negative: it ended then; 0: now). */
export const SimulateEndInput = z.strictObject({
  coverageId: z.string().min(1).max(100),
  endsInDays: z.number(M_DAYS).int(M_DAYS).min(-365, M_DAYS).max(365, M_DAYS),
});

/** The REST body of POST /business/coverages/{id}/simulate-end. */
export const SimulateEndBody = z
  .strictObject({
    endsInDays: z
      .number(M_DAYS)
      .int(M_DAYS)
      .min(-365, M_DAYS)
      .max(365, M_DAYS)
      .default(0)
      .describe(
        "The current period ends this many days from now: 0 (the default) ends it now, 3 is three days ahead, −1 yesterday",
      ),
  })
  .meta({ id: "SimulateEndInput" });
export type SimulateEndInput = z.output<typeof SimulateEndInput>;
