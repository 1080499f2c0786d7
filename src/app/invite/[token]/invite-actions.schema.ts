// The invitation's credentials form schemas, loaded with zod when the form first validates (lazyResolver).
import { zodResolver } from "@hookform/resolvers/zod";
import { M, z } from "@/lib/messages";

const Credentials = z.object({
  name: z.string().trim().max(100),
  password: z.string().min(8).max(128),
});

export const signIn = zodResolver(Credentials);
export const signUp = zodResolver(
  Credentials.extend({ name: z.string().trim().min(1, M.requiredWhat("your name")).max(100) }),
);
