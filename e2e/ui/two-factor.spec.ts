// Two-factor sign-in in the browser: the account menu's Security page turns it
// on (password, QR code and key, a code from the app, the backup codes shown
// once), signing in then asks for a code after the password (a wrong one is a
// field error), a backup code works instead, and it is turned off with the
// password and a backup code after a confirmation. An owner requires it for the
// organization on the Team page; a member without it is sent to set it up,
// then reaches the dashboard.
import { expect, test, type Page } from "@playwright/test";
import { joinTeam, tenantWithClients } from "../api/_helpers";
import { BASE_URL, signUp } from "../support/api";
import { checkPage, FIRST_LOAD, signedInPage } from "../support/screens";
import { awayFromStepEnd, enrolTwoFactor, totpCode } from "../support/totp";

async function openAccountMenuItem(page: Page, item: string) {
  await page.getByRole("button", { name: /^Account menu: Tess Factor/ }).click();
  await page.getByRole("menuitem", { name: item }).click();
}

async function passwordStep(page: Page, email: string, password: string) {
  await expect(page).toHaveURL(`${BASE_URL}/sign-in`, { timeout: FIRST_LOAD });
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Two-factor sign-in" })).toBeVisible({ timeout: FIRST_LOAD });
}

test("enrol with the key, sign in with a code, then with a backup code; turn it off", async ({ browser }) => {
  test.setTimeout(240_000);
  const account = await signUp({ name: "Tess Factor" });
  const page = await signedInPage(browser, account);
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Welcome, Tess" })).toBeVisible({ timeout: FIRST_LOAD });

  await openAccountMenuItem(page, "Security");
  await expect(page).toHaveURL(`${BASE_URL}/account/security`);
  const card = page.getByRole("heading", { name: /Two-factor sign-in/ });
  await expect(card).toContainText("Off", { timeout: FIRST_LOAD });
  await checkPage(page, "security-off", card);

  // Turn on: the password first (a wrong one is a field error).
  await page.getByRole("button", { name: "Turn on" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.locator("#tf-password-error")).toHaveText("Enter your password");
  await page.getByLabel("Password").fill("not-my-password");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.locator("#tf-password-error")).toHaveText("This is not your password");
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Continue" }).click();

  // The QR code and the key for typing in.
  const qr = page.getByRole("img", { name: "QR code to scan with your authenticator app" });
  await expect(qr).toBeVisible();
  expect(await qr.getAttribute("src")).toMatch(/^data:image\/png;base64,/);
  const key = (await page.getByTestId("totp-key").innerText()).replace(/\s+/g, "");
  expect(key).toMatch(/^[A-Z2-7]{16,}$/);
  await checkPage(page, "security-scan", qr);

  const codeField = page.getByLabel("Code from the app");
  await codeField.fill("12345");
  await page.getByRole("button", { name: "Confirm and turn on" }).click();
  await expect(page.locator("#tf-code-error")).toHaveText("Enter the 6-digit code from your app");
  await awayFromStepEnd();
  const right = await totpCode(key);
  await codeField.fill(right === "000000" ? "111111" : "000000");
  await page.getByRole("button", { name: "Confirm and turn on" }).click();
  await expect(page.locator("#tf-code-error")).toHaveText("This code is not right. Enter the code your app shows now");
  await codeField.fill(right);
  await page.getByRole("button", { name: "Confirm and turn on" }).click();

  // The backup codes, once.
  const codesHeading = page.getByRole("heading", { name: "Two-factor sign-in is on. Keep your backup codes" });
  await expect(codesHeading).toBeVisible();
  const backupCodes = await page.getByRole("list", { name: "Backup codes" }).getByRole("listitem").allInnerTexts();
  expect(backupCodes).toHaveLength(10);
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download .txt" }).click();
  expect((await download).suggestedFilename()).toBe("coverdesk-backup-codes.txt");
  await checkPage(page, "security-backup-codes", codesHeading);
  await page.getByRole("button", { name: "Done" }).click();
  await expect(card).toContainText("On");
  await expect(page.getByRole("button", { name: "New backup codes" })).toBeVisible();
  await checkPage(page, "security-on", card);

  // Sign out, then in: the code step after the password.
  await openAccountMenuItem(page, "Sign out");
  await passwordStep(page, account.email, account.password);
  const code = page.getByLabel("Authentication code");
  await expect(code).toBeFocused();
  await checkPage(page, "sign-in-code", page.getByRole("heading", { name: "Two-factor sign-in" }));
  await awayFromStepEnd();
  const next = await totpCode(key, 1);
  await code.fill(next === "000000" ? "111111" : "000000");
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.locator("#code-error")).toHaveText("This code is not right. Enter the code your app shows now");
  await expect(code).toHaveAttribute("aria-invalid", "true");
  await code.fill(next);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("heading", { name: "Welcome, Tess" })).toBeVisible({ timeout: FIRST_LOAD });

  // Sign out, then in with a backup code.
  await openAccountMenuItem(page, "Sign out");
  await passwordStep(page, account.email, account.password);
  await page.getByRole("button", { name: "Use a backup code instead" }).click();
  const backup = page.getByLabel("Backup code");
  await expect(backup).toBeFocused();
  await checkPage(page, "sign-in-backup-code", page.getByRole("heading", { name: "Two-factor sign-in" }));
  await backup.fill(backupCodes[0]!);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("heading", { name: "Welcome, Tess" })).toBeVisible({ timeout: FIRST_LOAD });

  // Turn off: the password and a backup code (the used one is refused), after a confirmation.
  await page.goto("/account/security");
  await page.getByRole("button", { name: "Turn off" }).click();
  await page.getByLabel("Password").fill(account.password);
  await page.getByLabel("Code from the app or a backup code").fill(backupCodes[0]!);
  await page.getByRole("button", { name: "Turn off" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Turn off two-factor sign-in?" });
  await dialog.getByRole("button", { name: "Turn off" }).click();
  await expect(page.locator("#off-code-error")).toHaveText("This code is not right");
  await page.getByLabel("Code from the app or a backup code").fill(backupCodes[1]!);
  await page.getByRole("button", { name: "Turn off" }).click();
  await dialog.getByRole("button", { name: "Turn off" }).click();
  await expect(card).toContainText("Off");
  await expect(page.getByRole("button", { name: "Turn on" })).toBeVisible();

  // Signing in asks for the password only again.
  await openAccountMenuItem(page, "Sign out");
  await expect(page).toHaveURL(`${BASE_URL}/sign-in`, { timeout: FIRST_LOAD });
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Welcome, Tess" })).toBeVisible({ timeout: FIRST_LOAD });
  await page.context().close();
});

test("the owner requires two-factor on the Team page; a member without it sets it up before the dashboard opens", async ({ browser }) => {
  test.setTimeout(180_000);
  const t = await tenantWithClients();
  const member = await joinTeam(t, "ADMIN");
  await enrolTwoFactor(t.account);

  const owner = await signedInPage(browser, t.account);
  await owner.goto("/team");
  const card = owner.getByRole("heading", { name: "Two-factor sign-in" }).locator("..");
  await expect(owner.getByTestId("two-factor-count")).toHaveText("1 of 2 members have it on.", { timeout: FIRST_LOAD });
  await owner.getByRole("switch", { name: "Require two-factor sign-in for every member" }).click();
  const confirm = owner.getByRole("alertdialog", { name: "Require two-factor sign-in?" });
  await expect(confirm).toContainText("Members without it (1)");
  await confirm.getByRole("button", { name: "Require it" }).click();
  await expect(owner.getByText("Two-factor sign-in is now required.")).toBeVisible();
  await expect(owner.getByRole("switch", { name: "Require two-factor sign-in for every member" })).toHaveAttribute("aria-checked", "true");
  await checkPage(owner, "team-two-factor-required", card);

  // The member's open session: every page leads to the set-up.
  const page = await signedInPage(browser, member.account);
  await page.goto("/payments");
  await expect(page).toHaveURL(`${BASE_URL}/two-factor-setup`, { timeout: FIRST_LOAD });
  await expect(page.getByRole("heading", { name: "Set up two-factor sign-in" })).toBeVisible();
  await checkPage(page, "two-factor-setup", page.getByRole("heading", { name: "Set up two-factor sign-in" }));
  await page.getByRole("button", { name: "Turn on" }).click();
  await page.getByLabel("Password").fill(member.account.password);
  await page.getByRole("button", { name: "Continue" }).click();
  const key = (await page.getByTestId("totp-key").innerText()).replace(/\s+/g, "");
  await awayFromStepEnd();
  await page.getByLabel("Code from the app").fill(await totpCode(key));
  await page.getByRole("button", { name: "Confirm and turn on" }).click();
  await expect(page.getByRole("heading", { name: "Two-factor sign-in is on. Keep your backup codes" })).toBeVisible();
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("heading", { name: /^Welcome, / })).toBeVisible({ timeout: FIRST_LOAD });
  await page.goto("/team");
  await expect(page.getByTestId("two-factor-count")).toHaveText("2 of 2 members have it on.", { timeout: FIRST_LOAD });
  await page.context().close();
  await owner.context().close();
});
