// Test mode in the dashboard: the switch in the shell shows only the test
// twin's data under an unmistakable banner, the API keys page makes test keys,
// the hosted checkout of a test payment says TEST and lists the test cards,
// and the organization's profile and team stay the same in both modes.
import { expect, test, type Page } from "@playwright/test";
import { createPolicyFor, initializeFor, otherSide, tenantWithClients } from "../api/_helpers";
import { unique } from "../support/api";
import { checkPage, FIRST_LOAD, signedInPage } from "../support/screens";

const main = (page: Page) => page.getByRole("main");
const banner = (page: Page) => page.getByTestId("test-mode-banner");

test("switching to test mode shows only test data, makes test keys, and the test checkout says TEST", async ({ browser }) => {
  test.setTimeout(240_000);
  const live = await tenantWithClients(`Mode Co ${unique()}`);
  const sandbox = await otherSide(live, "test");
  const livePolicy = await createPolicyFor(live.write, { name: `Live Cover ${unique()}` });
  const testPolicy = await createPolicyFor(sandbox.write, { name: `Test Cover ${unique()}`, price: "75.00" });
  const testPayment = await initializeFor(sandbox.write, testPolicy, `tester-${unique()}@example.test`);

  const page = await signedInPage(browser, live.account);
  await page.goto("/policies");
  await expect(main(page).getByText(livePolicy.name)).toBeVisible({ timeout: FIRST_LOAD });
  await expect(main(page).getByText(testPolicy.name)).toHaveCount(0);
  await expect(banner(page)).toHaveCount(0);

  // On: the banner, and only the test twin's policies and payments.
  await page.getByRole("switch", { name: "Test mode" }).first().click();
  await expect(banner(page)).toBeVisible({ timeout: FIRST_LOAD });
  await expect(banner(page)).toContainText("Test mode");
  await expect(main(page).getByText(testPolicy.name)).toBeVisible({ timeout: FIRST_LOAD });
  await expect(main(page).getByText(livePolicy.name)).toHaveCount(0);
  await expect(page.getByRole("switch", { name: "Test mode" }).first()).toHaveAttribute("aria-checked", "true");
  await checkPage(page, "test-mode-policies", banner(page));

  await page.goto("/payments");
  const rows = page.getByRole("table", { name: "Payments" }).getByTestId("payment-row");
  await expect(rows).toHaveCount(1, { timeout: FIRST_LOAD });
  await expect(rows.first()).toContainText(testPayment.reference);

  // The profile and the team are the organization's, whatever the mode.
  await page.goto("/settings");
  await expect(page.getByLabel("Business name")).toHaveValue(/^Mode Co /, { timeout: FIRST_LOAD });
  await page.goto("/team");
  await expect(main(page).getByText(live.account.email).first()).toBeVisible({ timeout: FIRST_LOAD });

  // A key made here is a test key by default.
  await page.goto("/api-keys");
  await page.getByRole("button", { name: /Create key/ }).first().click({ timeout: FIRST_LOAD });
  const dialog = page.getByRole("dialog", { name: "Create API key" });
  await expect(dialog.getByRole("radio", { name: /Test/ })).toBeChecked();
  await dialog.getByLabel("Name").fill("Staging server");
  await dialog.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByRole("dialog").getByText(/^cd_test_[0-9A-Za-z]{32}$/)).toBeVisible();
  await page.keyboard.press("Escape");
  const keyRow = page.getByTestId("api-key-row").filter({ hasText: "Staging server" });
  await expect(keyRow).toContainText("test");
  await expect(keyRow).toContainText("cd_test_");

  // The hosted checkout of a test payment: TEST, and the test cards.
  await page.goto(`/pay/${testPayment.reference}`);
  const note = page.getByTestId("checkout-test-banner");
  await expect(note).toContainText("Test payment");
  await expect(note).toContainText("4242 4242 4242 4242");
  await checkPage(page, "checkout-test", note);

  // Off again from the banner: live data, no banner.
  await page.goto("/policies");
  await banner(page).getByRole("button", { name: "Back to live data" }).click({ timeout: FIRST_LOAD });
  await expect(banner(page)).toHaveCount(0, { timeout: FIRST_LOAD });
  await expect(main(page).getByText(livePolicy.name)).toBeVisible({ timeout: FIRST_LOAD });
  await expect(main(page).getByText(testPolicy.name)).toHaveCount(0);
  await page.context().close();
});
