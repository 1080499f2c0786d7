import { z } from "@/lib/messages";

export const Profile = z.object({ name: z.string(), email: z.string() });
export type Profile = z.infer<typeof Profile>;

export const UpdateProfileInput = z.strictObject({
  name: z.string("Enter your name").trim().min(1, "Enter your name").max(120, "Use at most 120 characters"),
});
export type UpdateProfileInput = z.output<typeof UpdateProfileInput>;

/** A device signed in to the account (a session). */
export const Device = z.object({
  id: z.string(),
  browser: z.string().describe('e.g. "Chrome 131"'),
  system: z.string().describe('e.g. "macOS Sonoma"'),
  ipAddress: z.string().nullable(),
  signedInAt: z.iso.datetime(),
  lastActiveAt: z.iso.datetime(),
  current: z.boolean().describe("The device this request came from"),
});
export type Device = z.infer<typeof Device>;
export const DeviceList = z.object({ data: z.array(Device) });
export type DeviceList = z.infer<typeof DeviceList>;
export const DeviceIdInput = z.strictObject({ id: z.string().min(1).max(200) });

/** One sign-in to the account: a success, or a refused password or two-factor code. */
export const SignIn = z.object({
  id: z.string(),
  success: z.boolean(),
  reason: z.enum(["wrong_password", "wrong_code"]).nullable(),
  browser: z.string(),
  system: z.string(),
  ipAddress: z.string().nullable(),
  at: z.iso.datetime(),
});
export type SignIn = z.infer<typeof SignIn>;
export const SignInList = z.object({ data: z.array(SignIn) });
export type SignInList = z.infer<typeof SignInList>;
