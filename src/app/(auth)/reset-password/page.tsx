import type { Metadata } from "next";
import { ResetPasswordForm } from "./reset-password-form";

// The address carries the reset token: no page this one links to learns it through Referer.
export const metadata: Metadata = { title: "Choose a new password", referrer: "no-referrer" };

/**
 * Reached through the mailed link: better-auth checks the token and redirects
 * here with `?token=…`, or with `?error=INVALID_TOKEN` when it is unknown,
 * used or expired.
 */
export default async function ResetPasswordPage({
  searchParams,
}: {
  searchParams: Promise<{ token?: string | string[]; error?: string | string[] }>;
}) {
  const { token, error } = await searchParams;
  const usable = typeof token === "string" && token.length > 0 && token.length <= 200 && error === undefined ? token : null;
  return <ResetPasswordForm token={usable} />;
}
