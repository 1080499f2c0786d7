// The newcomer's journey: sign up in the browser, create a key on the API keys
// page, call the REST API with it, revoke it in the page, and be refused.
import { expect, test } from "@playwright/test";
import { problem, restClient, unique } from "../support/api";
import { checkPage, FIRST_LOAD } from "../support/screens";

test("sign up, create an API key, use it, revoke it", async ({ page }) => {
  const email = `owner-${unique()}@example.test`;

  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in/);
  await page.getByRole("link", { name: "Create an account" }).click();

  // Field errors come from the form's schema before anything is sent.
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Enter your business name")).toBeVisible();

  await page.getByLabel("Your name").fill("Ada Obi");
  await page.getByLabel("Business name").fill("Acme Insurance Brokers");
  await page.getByLabel("Work email").fill(email);
  await page.getByLabel("Password").fill("correct-horse-battery");
  await page.getByRole("button", { name: "Create account" }).click();

  await expect(page.getByRole("heading", { name: "Welcome, Ada" })).toBeVisible();
  await expect(page.getByRole("button", { name: /switch organization$/i })).toContainText("Acme Insurance Brokers");

  await page.getByRole("link", { name: "API keys" }).first().click();
  await expect(page.getByText("No API keys yet")).toBeVisible();
  await checkPage(page, "api-keys-empty", page.getByText("No API keys yet"));
  await page.getByRole("button", { name: "Create your first key" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill("Website checkout");
  // One choice of access, read and write unless the user picks otherwise.
  const access = dialog.getByRole("group", { name: "Permissions" });
  await expect(access.getByRole("radio", { name: /Read and write/ })).toBeChecked();
  await expect(access.getByRole("radio", { name: /Read only/ })).not.toBeChecked();
  await checkPage(page, "api-keys-create-dialog", dialog.getByLabel("Name"));
  await dialog.getByRole("button", { name: "Create key" }).click();

  const secret = page.getByTestId("api-key-secret");
  await expect(secret).toHaveText(/^cd_live_[0-9A-Za-z]{32}$/);
  const key = (await secret.textContent())!;
  await checkPage(page, "api-keys-secret", secret);
  await page.getByRole("button", { name: "I have stored it" }).click();

  const row = page.getByTestId("api-key-row").filter({ hasText: "Website checkout" });
  await expect(row).toContainText(key.slice(0, 12));
  await expect(row).toContainText("active");
  await checkPage(page, "api-keys", row);

  const api = await restClient(key);
  const ok = await api.get("business/api-keys");
  expect(ok.status()).toBe(200);
  const listed = await ok.json();
  expect(listed.data.map((k: { name: string }) => k.name)).toEqual(["Website checkout"]);
  expect((await api.put("business/settings", { data: { notifications: { sms: true } } })).status()).toBe(200);

  // Made read-only in its edit dialog: it still reads, and may no longer write.
  await row.getByRole("button", { name: "Edit" }).click();
  const edit = page.getByRole("dialog", { name: "Edit API key" });
  await expect(edit.getByRole("radio", { name: /Read and write/ })).toBeChecked();
  await edit.getByText("Read only").click();
  await expect(edit.getByRole("radio", { name: /Read only/ })).toBeChecked();
  await expect(edit.getByRole("radio", { name: /Read and write/ })).not.toBeChecked();
  await checkPage(page, "api-keys-edit-dialog", edit.getByRole("radio", { name: /Read only/ }));
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit).toBeHidden();
  await expect(row).not.toContainText("write");
  expect((await api.get("business/api-keys")).status()).toBe(200);
  await problem(
    await api.put("business/settings", { data: { notifications: { sms: false } } }),
    403,
    "insufficient_permissions",
  );

  await row.getByRole("button", { name: "Revoke" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText("cannot be undone");
  await checkPage(page, "api-keys-revoke-dialog", confirm);
  await confirm.getByRole("button", { name: "Revoke key" }).click();
  await expect(row).toContainText("revoked");

  await problem(await api.get("business/api-keys"), 401, "revoked_api_key");
});

test("the dashboard works at phone width", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/sign-up");
  await page.getByLabel("Your name").fill("Bola Ade");
  await page.getByLabel("Business name").fill("Mobile Cover Ltd");
  await page.getByLabel("Work email").fill(`mobile-${unique()}@example.test`);
  await page.getByLabel("Password").fill("correct-horse-battery");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Welcome, Bola" })).toBeVisible();

  // Navigation lives in a menu on small screens.
  await page.getByRole("button", { name: "Open menu" }).click();
  await page.getByRole("dialog", { name: "Menu" }).getByRole("link", { name: "Settings" }).click();
  // This worker's first visit to the page: under the suite's load its first render took over 10 s once.
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible({ timeout: FIRST_LOAD });
  await page.screenshot({ path: "test-results/screens/settings-390.png", fullPage: true });

  const rate = page.getByLabel("API rate limit");
  await rate.fill("0");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Enter a whole number from 1 to 100000")).toBeVisible();
  await rate.fill("1200");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Settings saved")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("API rate limit")).toHaveValue("1200");

  const body = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(body).toBeLessThanOrEqual(390);
});
