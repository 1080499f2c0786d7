import { z } from "@/lib/messages";
import { NOTICE_KINDS, TEMPLATE_LIMITS } from "@/lib/notice-templates";

/** A notice by name; an unknown name is a 404 (no such template), like an unknown id. */
export const NoticeKindParam = z.object({
  kind: z.string().max(64).describe(`The policyholder notice: ${NOTICE_KINDS.join(", ")}`),
});

const text = (max: number, what: string) =>
  z
    .string(`Write the ${what}`)
    .max(max, `Keep it to ${max} characters`)
    .describe(`${what}: {{placeholders}} only, at most ${max} characters`);

/** A business's own words for one policyholder notice. */
export const NotificationTemplateInput = z.strictObject({
  emailSubject: text(TEMPLATE_LIMITS.emailSubject, "email subject"),
  emailBody: text(TEMPLATE_LIMITS.emailBody, "email text").describe(
    "The email's words (plain text; a blank line starts a new paragraph). The details, the button with the link and the footer are added around them.",
  ),
  smsBody: text(TEMPLATE_LIMITS.smsBody, "text message").describe(
    "The SMS: must carry the notice's link placeholder; kept to 2 segments when sent (values shortened, never the link)",
  ),
});
export type NotificationTemplateInput = z.output<typeof NotificationTemplateInput>;

export const NotificationTemplate = z
  .object({
    kind: z.enum(NOTICE_KINDS),
    label: z.string(),
    when: z.string().describe("When it is sent"),
    link: z.string().describe("The placeholder of the link its SMS must carry"),
    placeholders: z.array(z.object({ name: z.string(), description: z.string() })),
    emailSubject: z.string(),
    emailBody: z.string(),
    smsBody: z.string(),
    customized: z.boolean().describe("false: the default words"),
    updatedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: "NotificationTemplate" });
export type NotificationTemplate = z.infer<typeof NotificationTemplate>;

export const NotificationTemplateList = z.object({ data: z.array(NotificationTemplate) }).meta({ id: "NotificationTemplateList" });
export type NotificationTemplateList = z.infer<typeof NotificationTemplateList>;

export const TemplateTestResult = z.object({
  email: z.string().describe("Where the sample email goes: your address"),
  phone: z.string().nullable().describe("Where the sample SMS goes: your verified phone, if any"),
});

/** The signed-in user's phone for SMS notices. */
export const ProfilePhone = z.object({
  phone: z.string().nullable().describe("The verified phone (E.164)"),
  pendingPhone: z.string().nullable().describe("A phone waiting for its code"),
});
export type ProfilePhone = z.infer<typeof ProfilePhone>;
export const StartPhoneInput = z.strictObject({ phone: z.string("Enter your phone number").trim().min(1, "Enter your phone number").max(32) });
export const VerifyPhoneInput = z.strictObject({
  code: z.string("Enter the code").trim().regex(/^\d{6}$/, "Enter the 6-digit code from the text message"),
});

/** The signed-in policyholder's contact preferences in the portal. */
export const PortalContact = z.object({
  phone: z.string().nullable(),
  smsOptOut: z.boolean(),
});
export type PortalContact = z.infer<typeof PortalContact>;
export const PortalContactInput = z.strictObject({
  phone: z
    .string()
    .trim()
    .max(32)
    .nullable()
    .optional()
    .describe("Your mobile number, e.g. \"+2348031234567\" (or 08031234567 in Nigeria); null or empty removes it")
    .meta({ examples: ["+2348031234567"] }),
  smsOptOut: z.boolean().optional().describe("true: no text messages (a sign-in code you ask for by SMS still comes)"),
});
export type PortalContactInput = z.output<typeof PortalContactInput>;
