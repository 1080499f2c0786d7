import { createAuthClient } from "better-auth/react";
import { twoFactorClient } from "better-auth/client/plugins";

// Two-factor sign-in: the sign-in form asks for the code itself when the answer says so (twoFactorRedirect).
export const authClient = createAuthClient({ plugins: [twoFactorClient()] });
