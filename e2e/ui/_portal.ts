// The portal's sign-in in a browser page, shared by the portal's UI specs.
import { expect, type Page } from "@playwright/test";
import { waitForMailbox } from "../api/_mail";

/** Signs in to the portal in this page with the code the app emails. */
export async function signInToPortal(page: Page, email: string) {
  const before = (await waitForMailbox(email, () => true, "anything", 1)).length;
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Email me a code" }).click();
  await expect(page.getByLabel("Sign-in code")).toBeVisible();
  const mails = await waitForMailbox(
    email,
    (m) => m.length > before && /sign-in code/i.test(m[m.length - 1]!.subject),
    "a sign-in code",
  );
  const code = /(\d{6}) is your/.exec(mails[mails.length - 1]!.subject)![1]!;
  await page.getByLabel("Sign-in code").fill(code);
  await page.getByRole("button", { name: "Sign in" }).click();
}
