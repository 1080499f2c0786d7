// The organization form's schema (the API's own rules; empty optional fields
// mean "none"), loaded with zod when the form first validates (lazyResolver).
import { zodResolver } from "@hookform/resolvers/zod";
import { M, z } from "@/lib/messages";
import { Currency, E164 } from "@/lib/schemas/organizations";

export const FormSchema = z.object({
  name: z.string().trim().min(1, M.requiredWhat("the business name")).max(120),
  email: z.email(M.email),
  phone: z.union([z.literal(""), E164], M.phone),
  address: z.string().trim().max(500),
  currency: Currency,
});
export type OrganizationFormValues = z.infer<typeof FormSchema>;

export const resolver = zodResolver(FormSchema);
