// Passwords in the browser: "Forgot password?" on the sign-in page mails a
// link (read here from the local outbox), the link opens the new-password
// form, and the old password stops working; an unknown email gets the same
// answer and no mail; a bad link says so. In the dashboard the account menu
// changes the password, with a field error for a wrong current one.
import { expect, request as playwrightRequest, test, type Browser } from "@playwright/test";
import { mailboxOf, waitForMailbox } from "../api/_mail";
import { BASE_URL, signUp, unique } from "../support/api";
import { checkPage, FIRST_LOAD, signedInPage } from "../support/screens";

const SENT = "If an account exists for that email, we sent a link to choose a new password. The link works once, for 1 hour.";

/** A browser page with nobody signed in. */
async function anonymousPage(browser: Browser) {
  const context = await browser.newContext({ baseURL: BASE_URL, viewport: { width: 1280, height: 800 } });
  return context.newPage();
}

/** The newest reset link mailed to `email`, once `count` have arrived. */
async function resetLink(email: string, count = 1) {
  const mails = await waitForMailbox(email, (m) => m.length >= count, `${count} password-reset email(s)`);
  expect(mails).toHaveLength(count);
  expect(mails.at(-1)!.subject).toBe("Reset your Coverdesk password");
  const link = /(http:\/\/\S+\/api\/auth\/reset-password\/\S+)/.exec(mails.at(-1)!.text)?.[1];
  expect(link, mails.at(-1)!.text).toBeTruthy();
  return link!;
}

const httpSignIn = async (email: string, password: string) => {
  const client = await playwrightRequest.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { Origin: BASE_URL } });
  const status = (await client.post("/api/auth/sign-in/email", { data: { email, password } })).status();
  await client.dispose();
  return status;
};

test("forgot password: the mailed link sets a new password, after field errors; the old password stops working", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const account = await signUp({ name: "Ada Reset" });
  const page = await anonymousPage(browser);

  await page.goto("/sign-in");
  await expect(page.getByRole("link", { name: "Forgot password?" })).toBeVisible({ timeout: FIRST_LOAD });
  await page.screenshot({ path: "test-results/screens/sign-in-forgot-link.png" });
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(`${BASE_URL}/forgot-password`);
  const heading = page.getByRole("heading", { name: "Forgot your password?" });
  await checkPage(page, "forgot-password", heading);

  // The form's own check first.
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.locator("#email-error")).toHaveText("Enter a valid email address, like name@example.com");
  expect(await mailboxOf(account.email)).toEqual([]);

  await page.getByLabel("Email").fill(account.email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeFocused();
  await expect(page.getByText(SENT)).toBeVisible();
  await expect(page.getByText(account.email)).toBeVisible();
  await checkPage(page, "forgot-password-sent", page.getByRole("heading", { name: "Check your email" }));

  // The link goes through better-auth's check and lands on the form with the token.
  const link = await resetLink(account.email);
  await page.goto(link);
  await expect(page).toHaveURL(/\/reset-password\?token=[A-Za-z0-9_-]+$/);
  const form = page.getByRole("heading", { name: "Choose a new password" });
  await checkPage(page, "reset-password", form);

  const password = page.getByLabel("New password", { exact: true });
  const confirm = page.getByLabel("Confirm new password");
  await password.fill("short");
  await confirm.fill("short");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.locator("#password-error")).toHaveText("Use at least 8 characters");
  await expect(password).toHaveAttribute("aria-invalid", "true");

  await password.fill("a-brand-new-password");
  await confirm.fill("a-different-password");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.locator("#confirm-error")).toHaveText("Enter the same password in both fields");
  await expect(page.locator("#password-error")).toHaveCount(0);
  await page.screenshot({ path: "test-results/screens/reset-password-errors.png" });

  await confirm.fill("a-brand-new-password");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("heading", { name: "Your password was changed" })).toBeFocused();
  // The account's sessions were all signed out.
  expect(await (await account.session.get("/api/auth/get-session")).json()).toBeNull();

  await page.getByRole("link", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${BASE_URL}/sign-in`);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Wrong email or password.")).toBeVisible();
  await page.getByLabel("Password").fill("a-brand-new-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Welcome, Ada" })).toBeVisible({ timeout: FIRST_LOAD });

  // The link was used up.
  await page.goto(link);
  await expect(page).toHaveURL(`${BASE_URL}/reset-password?error=INVALID_TOKEN`);
  await expect(page.getByRole("heading", { name: "This reset link has expired or is invalid" })).toBeVisible();
  await page.context().close();
});

test("an unknown email gets the same answer and no mail; a bad or missing link shows how to get a new one", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const account = await signUp();
  const unknown = `nobody-${unique()}@example.test`;
  const page = await anonymousPage(browser);

  const answerFor = async (email: string) => {
    await page.goto("/forgot-password");
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible({ timeout: FIRST_LOAD });
    return (await page.locator("main").innerText()).replace(email, "<email>");
  };
  const unknownAnswer = await answerFor(unknown);
  expect(unknownAnswer).toContain(SENT);
  expect(await answerFor(account.email)).toBe(unknownAnswer);
  // The account's mail arrives; none was written for the unknown address.
  await resetLink(account.email);
  expect(await mailboxOf(unknown)).toEqual([]);

  // A made-up token, checked by better-auth's callback.
  await page.goto(
    `/api/auth/reset-password/made-up-token-0123456789?callbackURL=${encodeURIComponent(`${BASE_URL}/reset-password`)}`,
  );
  await expect(page).toHaveURL(`${BASE_URL}/reset-password?error=INVALID_TOKEN`);
  const invalid = page.getByRole("heading", { name: "This reset link has expired or is invalid" });
  await checkPage(page, "reset-password-invalid", invalid);
  await expect(page.getByRole("textbox")).toHaveCount(0);
  await page.getByRole("link", { name: "Request a new link" }).click();
  await expect(page).toHaveURL(`${BASE_URL}/forgot-password`);

  // No token at all.
  await page.goto("/reset-password");
  await expect(invalid).toBeVisible();

  // A token typed into the address: the form, then the server's refusal.
  await page.goto("/reset-password?token=made-up-token-0123456789");
  await page.getByLabel("New password", { exact: true }).fill("a-brand-new-password");
  await page.getByLabel("Confirm new password").fill("a-brand-new-password");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(invalid).toBeFocused();
  expect(await httpSignIn(account.email, account.password)).toBe(200);
  await page.context().close();
});

test("change password from the account menu: a wrong current password is a field error, the right one a toast", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const account = await signUp({ name: "Bola Change" });
  const page = await signedInPage(browser, account);
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Welcome, Bola" })).toBeVisible({ timeout: FIRST_LOAD });

  const menu = page.getByRole("button", { name: /^Account menu: Bola Change/ });
  await expect(menu).toContainText(account.email);
  await menu.click();
  await expect(page.getByRole("menuitem", { name: "Sign out" })).toBeVisible();
  await page.screenshot({ path: "test-results/screens/account-menu.png" });
  await page.getByRole("menuitem", { name: "Change password" }).click();
  const dialog = page.getByRole("dialog", { name: "Change password" });
  await expect(dialog.getByLabel("Current password")).toBeFocused();
  await checkPage(page, "change-password-dialog", dialog);

  // The schema's checks, then the server's.
  await dialog.getByRole("button", { name: "Change password" }).click();
  await expect(dialog.locator("#current-password-error")).toHaveText("Enter your current password");
  await expect(dialog.locator("#new-password-error")).toHaveText("Use at least 8 characters");

  await dialog.getByLabel("Current password").fill("not-my-password");
  await dialog.getByLabel("New password", { exact: true }).fill("a-changed-password");
  await dialog.getByLabel("Confirm new password").fill("a-changed-password");
  await dialog.getByRole("button", { name: "Change password" }).click();
  await expect(dialog.locator("#current-password-error")).toHaveText("This is not your current password");
  await expect(dialog.getByLabel("Current password")).toHaveAttribute("aria-invalid", "true");
  await page.screenshot({ path: "test-results/screens/change-password-wrong-current.png" });
  expect(await httpSignIn(account.email, "a-changed-password")).toBe(401);

  await dialog.getByLabel("Current password").fill(account.password);
  await dialog.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Password changed. Your other devices were signed out.")).toBeVisible();
  await expect(dialog).toBeHidden();

  // This browser stays signed in (on a new session); the old session's cookie no longer works.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Welcome, Bola" })).toBeVisible({ timeout: FIRST_LOAD });
  expect(await (await account.session.get("/api/auth/get-session")).json()).toBeNull();
  expect(await httpSignIn(account.email, account.password)).toBe(401);
  expect(await httpSignIn(account.email, "a-changed-password")).toBe(200);

  // On a phone the same menu sits in the drawer; choosing it closes the drawer and opens the dialog.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("button", { name: "Open menu" }).click();
  const drawer = page.getByRole("dialog", { name: "Menu" });
  await drawer.getByRole("button", { name: /^Account menu/ }).click();
  await page.getByRole("menuitem", { name: "Change password" }).click();
  await expect(drawer).toBeHidden();
  await expect(dialog.getByLabel("Current password")).toBeFocused();
  // Reopened empty.
  await expect(dialog.getByLabel("Current password")).toHaveValue("");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await page.context().close();
});
