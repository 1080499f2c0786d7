// The sign-in, sign-up and password forms' schemas, loaded with zod when a
// form first validates (lazyResolver): the pages themselves carry no zod.
import { zodResolver } from "@hookform/resolvers/zod";
import { M, z } from "@/lib/messages";

const SignIn = z.object({
  email: z.email("Enter your email address"),
  password: z.string().min(1, "Enter your password"),
});
export const signIn = zodResolver(SignIn);

const SignUp = z.object({
  name: z.string().trim().min(1, M.requiredWhat("your name")).max(100),
  organizationName: z.string().trim().min(1, M.requiredWhat("your business name")).max(120),
  email: z.email(M.email),
  password: z.string().min(8).max(128),
});
export const signUp = zodResolver(SignUp);

const ForgotPassword = z.object({ email: z.email(M.email) });
export const forgotPassword = zodResolver(ForgotPassword);

/** The new password twice, with the limits the server enforces (8 to 128 characters). */
const NewPassword = z
  .object({
    password: z.string().min(8, M.minChars(8)).max(128, M.maxChars(128)),
    confirm: z.string().min(1, "Enter the new password again"),
  })
  .refine((v) => v.password === v.confirm, { path: ["confirm"], message: "Enter the same password in both fields" });
export const newPassword = zodResolver(NewPassword);
