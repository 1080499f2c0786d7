import { isCurrency } from "@/lib/currencies";
import { M, z } from "@/lib/messages";
import { pageOf } from "@/lib/schemas/pagination";

const trimmed = (max: number) => z.string().trim().min(1).max(max);

export const E164 = z
  .string()
  .trim()
  .regex(/^\+[1-9]\d{6,14}$/, M.phone);

export const Currency = z
  .string()
  .trim()
  .refine((c) => /^[A-Z]{3}$/.test(c) && isCurrency(c), M.currency);

export const CreateOrganizationInput = z
  .strictObject({
    name: trimmed(120).describe("Business name"),
    email: z.email(M.email).max(254).describe("Contact email of the business"),
    phone: E164.optional().describe("Phone number in E.164 form"),
    address: trimmed(500).optional(),
    currency: Currency.optional().describe("ISO 4217 currency for prices and payouts; default NGN"),
  })
  .meta({ id: "CreateOrganizationInput" });
export type CreateOrganizationInput = z.infer<typeof CreateOrganizationInput>;

export const UpdateOrganizationInput = z
  .strictObject({
    name: trimmed(120).optional(),
    email: z.email(M.email).max(254).optional(),
    phone: E164.nullable().optional(),
    address: trimmed(500).nullable().optional(),
    currency: Currency.optional(),
  })
  .refine((v) => Object.keys(v).length > 0, M.atLeastOneField)
  .meta({ id: "UpdateOrganizationInput" });
export type UpdateOrganizationInput = z.infer<typeof UpdateOrganizationInput>;

export const Organization = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    address: z.string().nullable(),
    currency: z.string(),
    role: z.enum(["OWNER", "ADMIN", "MEMBER"]).describe("The caller's role in this organization"),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Organization" });
export type Organization = z.infer<typeof Organization>;

export const OrganizationList = pageOf(Organization, "OrganizationList");

/** The signed-in user in their active organization: role and what it lets them do (dashboard). */
export const Me = z.object({
  role: z.enum(["OWNER", "ADMIN", "MEMBER"]),
  can: z.object({ manage: z.boolean(), admin: z.boolean(), adminRead: z.boolean() }),
  platformAdmin: z.boolean().describe("Runs Coverdesk itself: the dashboard links to /admin"),
  livemode: z.boolean().describe("false while the dashboard shows the test data (test mode)"),
});
export type Me = z.infer<typeof Me>;
