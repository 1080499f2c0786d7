// The settings form's schema, loaded with zod when the form first validates (lazyResolver).
import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "@/lib/messages";

const FormSchema = z.object({
  email: z.boolean(),
  sms: z.boolean(),
  rateLimit: z.number("Enter a number").int("Whole numbers only").min(1, "At least 1").max(100_000, "At most 100000"),
});
export type Values = z.infer<typeof FormSchema>;

export const resolver = zodResolver(FormSchema);
