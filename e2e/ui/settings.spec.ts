// Onboarding and the organization's profile: a user without an organization
// can create one at once (nothing to change first) or sign out; the currency
// is chosen from ISO 4217 codes, and once payments were made in it the
// profile says why it can no longer change.
import { expect, test } from "@playwright/test";
import { createPolicyFor, initializeFor, ok, signUpWithoutOrganization, tenantWithClients } from "../api/_helpers";
import { BASE_URL, unique } from "../support/api";
import { checkPage, FIRST_LOAD, signedInPage } from "../support/screens";

test("onboarding: Create is enabled at once, Sign out is there, and the currency is a list of ISO codes", async ({ browser }) => {
  test.setTimeout(120_000);
  const email = `onboard-${unique()}@example.test`;
  const account = await signUpWithoutOrganization(email, "Bola Ade");
  const page = await signedInPage(browser, account);
  await page.goto("/");
  await expect(page).toHaveURL(/\/onboarding$/, { timeout: FIRST_LOAD });
  const create = page.getByRole("button", { name: "Create organization" });
  await expect(create).toBeEnabled();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  const currency = page.getByLabel("Currency");
  await expect(currency).toHaveValue("NGN");
  await expect(currency.locator("option", { hasText: "USD — US Dollar" })).toHaveCount(1);
  expect(await currency.locator("option").count()).toBeGreaterThan(100);
  await checkPage(page, "onboarding", create);

  // Nothing changed but the name is missing: the form says so instead of doing nothing.
  await create.click();
  await expect(page.locator('[id="org-name-error"]')).toHaveText("Enter the business name");

  // Sign out from here, then come back and create it in dollars.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/, { timeout: FIRST_LOAD });
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/onboarding$/, { timeout: FIRST_LOAD });
  await page.getByLabel("Business name").fill(`Ade Cover ${unique()}`);
  await page.getByLabel("Currency").selectOption("USD");
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page.getByRole("heading", { name: "Welcome, Bola" })).toBeVisible({ timeout: FIRST_LOAD });
  await page.goto("/settings");
  await expect(page.getByLabel("Currency")).toHaveValue("USD", { timeout: FIRST_LOAD });
  await page.context().close();
});

test("settings: the currency changes until money moved, then the form says why it cannot", async ({ browser }) => {
  test.setTimeout(120_000);
  const t = await tenantWithClients();
  const page = await signedInPage(browser, t.account);
  await page.goto("/settings");
  const currency = page.getByLabel("Currency");
  await expect(currency).toBeEnabled({ timeout: FIRST_LOAD });
  const save = page.getByRole("button", { name: "Save profile" });
  // Nothing changed yet: nothing to save.
  await expect(save).toBeDisabled();
  await currency.selectOption("GHS");
  await save.click();
  await expect(page.getByText("Profile saved")).toBeVisible();
  expect((await ok(await t.read.get(`organizations/${t.organizationId}`))).currency).toBe("GHS");
  await checkPage(page, "settings", save);

  // A payment is made: the currency is locked, and the page says why.
  const policy = await createPolicyFor(t.write, { price: "30.00" });
  await initializeFor(t.write, policy, `c-${unique()}@example.test`);
  await page.reload();
  await expect(page.getByLabel("Currency")).toBeDisabled({ timeout: FIRST_LOAD });
  await expect(page.getByText("Payments have already been made in GHS, so the currency can no longer change")).toBeVisible();
  // Over the API the same change is refused with that reason (a 409), nothing changed.
  const res = await t.write.put(`organizations/${t.organizationId}`, { data: { currency: "NGN" } });
  expect(res.status()).toBe(409);
  expect((await res.json()).code).toBe("currency_locked");
  expect((await ok(await t.read.get(`organizations/${t.organizationId}`))).currency).toBe("GHS");
  await checkPage(page, "settings-currency-locked", page.getByLabel("Currency"));
  expect(page.url().startsWith(BASE_URL)).toBe(true);
  await page.context().close();
});
