// The password-reset mail. better-auth makes the token (single use, stored in
// its verification table) and calls `mailPasswordReset` only for an email that
// belongs to an account; the request's answer is the same either way.
import crypto from "node:crypto";
import { db } from "@/server/db/client";
import { env } from "@/server/env";
import { layoutEmail, sendEmail } from "@/server/integrations/email";
import { logger } from "@/server/logger";
import type { RenderedMail } from "./templates";

/** How long a reset link works, in seconds (better-auth's `resetPasswordTokenExpiresIn`). */
export const RESET_PASSWORD_TOKEN_EXPIRES_IN = 60 * 60;

/**
 * The link in the mail: better-auth's own callback checks the token and
 * redirects to `/reset-password?token=…` (or `?error=INVALID_TOKEN` once it is
 * used or expired). The page it lands on is fixed here, not taken from the request.
 */
export const passwordResetLink = (token: string) =>
  `${env.APP_URL}/api/auth/reset-password/${encodeURIComponent(token)}?callbackURL=${encodeURIComponent(`${env.APP_URL}/reset-password`)}`;

const RESET_PREFIX = "reset-password:";

/**
 * better-auth's `verification.storeIdentifier` for reset tokens: the table keeps
 * a SHA-256 of the token (reading it gives no working link), under the same
 * prefix, so that a user's outstanding links can still be found.
 */
export const hashResetIdentifier = async (identifier: string) =>
  `${RESET_PREFIX}${crypto.createHash("sha256").update(identifier).digest("base64url")}`;

/** better-auth's `onPasswordReset`: once the password is reset, the user's other reset links stop working too. */
export async function forgetResetLinks(userId: string): Promise<void> {
  await db.verification.deleteMany({ where: { value: userId, identifier: { startsWith: RESET_PREFIX } } });
}

/** Pure: the words of the mail, every value escaped by layoutEmail. */
export function passwordReset(d: { name: string; email: string; link: string; expiresInMinutes: number }): RenderedMail {
  return {
    subject: "Reset your Coverdesk password",
    link: d.link,
    ...layoutEmail({
      heading: "Reset your password",
      paragraphs: [
        `Hello ${d.name},`,
        `We received a request to reset the password of the Coverdesk account for ${d.email}. Choose a new password with the button below.`,
        `The link works once and expires in ${d.expiresInMinutes} minutes. Once the password is changed, every device signed in to this account is signed out.`,
        "If you did not ask for this, ignore this email: your password stays as it is.",
      ],
      action: { label: "Choose a new password", url: d.link },
      footer: "You receive this email because a password reset was requested for this address on Coverdesk.",
    }),
  };
}

/**
 * better-auth's `sendResetPassword`. The mail is sent in the background, so a
 * known email is answered as fast as an unknown one (no account probing by
 * timing); a failure is logged without the link (it carries the token).
 */
export function mailPasswordReset(user: { id: string; name: string; email: string }, token: string): void {
  const mail = passwordReset({
    name: user.name,
    email: user.email,
    link: passwordResetLink(token),
    expiresInMinutes: RESET_PASSWORD_TOKEN_EXPIRES_IN / 60,
  });
  sendEmail({ to: user.email, ...mail }).catch((err: unknown) => {
    logger.error(
      { userId: user.id, error: err instanceof Error ? err.message : String(err) },
      "could not send the password-reset email",
    );
  });
}
