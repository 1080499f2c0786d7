// Settings: the policyholder portal's link (the test twin's in test mode),
// branding (logo uploaded, shown, removed after a confirmation; accent colour)
// and renewal reminder days with a field error for a bad value. The customer
// page in test mode: the test clock ends a cover and "Reminders sent" fills in.
import { expect, test, type Page } from "@playwright/test";
import { PNG } from "../api/_files";
import { buyPolicy, createPolicyFor, ok, otherSide, tenantWithClients } from "../api/_helpers";
import { BASE_URL, trpc, unique } from "../support/api";
import { checkPage, FIRST_LOAD, signedInPage } from "../support/screens";

const region = (page: Page, name: string) => page.getByRole("region", { name, exact: true });

test("settings: portal link, logo, accent colour and reminder days", async ({ browser }) => {
  test.setTimeout(240_000);
  const t = await tenantWithClients(`Brand Co ${unique()}`);
  const page = await signedInPage(browser, t.account);
  await page.goto("/settings");

  // The portal link, to copy or open.
  const portal = region(page, "Policyholder portal");
  await expect(portal.getByTestId("portal-link")).toHaveText(`${BASE_URL}/portal/${t.organizationId}`, { timeout: FIRST_LOAD });
  await expect(portal.getByRole("link", { name: /Open/ })).toHaveAttribute("href", `${BASE_URL}/portal/${t.organizationId}`);
  await expect(portal.getByRole("button", { name: "Copy link" })).toBeVisible();
  const reminders = region(page, "Renewal reminders");
  await expect(page.getByLabel("Days before the end of cover")).toHaveValue("14, 3", { timeout: FIRST_LOAD });
  await expect(reminders.getByTestId("reminder-days-summary")).toHaveText(
    "Policyholders are emailed 14 days, 3 days before their cover ends.",
  );
  await expect(region(page, "Branding").getByText("No logo yet")).toBeVisible();
  await checkPage(page, "settings-branding", portal.getByTestId("portal-link"));

  // Reminder days: a bad value says why, and nothing is saved.
  const days = page.getByLabel("Days before the end of cover");
  await days.fill("14, 120");
  await reminders.getByRole("button", { name: "Save reminders" }).click();
  await expect(page.locator('[id="reminder-days-error"]')).toHaveText("Enter whole numbers of days from 1 to 90");
  await expect(days).toHaveAttribute("aria-invalid", "true");
  await checkPage(page, "settings-reminders-error", page.locator('[id="reminder-days-error"]'));
  expect((await ok(await t.read.get("business/settings"))).reminders.daysBefore).toEqual([14, 3]);
  await days.fill("7, 30");
  await reminders.getByRole("button", { name: "Save reminders" }).click();
  await expect(page.getByText("Reminder days saved")).toBeVisible();
  await expect(days).toHaveValue("30, 7");
  await expect(reminders.getByTestId("reminder-days-summary")).toHaveText(
    "Policyholders are emailed 30 days, 7 days before their cover ends.",
  );
  expect((await ok(await t.read.get("business/settings"))).reminders.daysBefore).toEqual([30, 7]);

  // The logo: uploaded through the dashboard's upload route, then shown.
  const branding = region(page, "Branding");
  await branding.locator('input[type="file"]').setInputFiles({ name: "brand.png", mimeType: "image/png", buffer: PNG });
  await expect(page.getByText("Logo saved")).toBeVisible();
  const logo = branding.getByTestId("logo-preview");
  await expect(logo).toBeVisible();
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(branding).toContainText("brand.png");
  expect((await ok(await t.read.get("business/settings"))).branding.logo).toMatchObject({ fileName: "brand.png" });

  // A PDF is refused before it is sent.
  await branding
    .locator('input[type="file"]')
    .setInputFiles({ name: "logo.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%%EOF\n") });
  await expect(branding.getByRole("alert")).toHaveText("“logo.pdf” is not a PNG or JPEG image.");

  // The accent colour: a bad one says why; a good one is saved and previewed.
  const color = page.getByRole("textbox", { name: "Accent colour", exact: true });
  await color.fill("#12");
  await branding.getByRole("button", { name: "Save colour" }).click();
  await expect(page.locator('[id="accent-color-error"]')).toHaveText("Enter a colour as # and 6 hex digits, like #1d4ed8");
  await color.fill("#0F766E");
  await branding.getByRole("button", { name: "Save colour" }).click();
  await expect(page.getByText("Accent colour saved")).toBeVisible();
  await expect(branding.getByTestId("accent-preview")).toHaveCSS("background-color", "rgb(15, 118, 110)");
  expect((await ok(await t.read.get("business/settings"))).branding.accentColor).toBe("#0f766e");
  await checkPage(page, "settings-branding-set", logo);

  // Removing the logo asks first.
  await branding.getByRole("button", { name: "Remove logo" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Remove the logo?" });
  await expect(confirm).toBeVisible();
  await checkPage(page, "settings-logo-remove", confirm);
  await confirm.getByRole("button", { name: "Remove logo" }).click();
  await expect(branding.getByText("No logo yet")).toBeVisible();
  expect((await ok(await t.read.get("business/settings"))).branding.logo).toBeNull();

  // In test mode the link is the test twin's portal, and says so.
  await trpc(t.account, "organizations.setMode", { livemode: false });
  await page.reload();
  const twinId = (await trpc<{ organizationId: string }>(t.account, "settings.portal", undefined, "query")).organizationId;
  expect(twinId).not.toBe(t.organizationId);
  await expect(portal.getByTestId("portal-link")).toHaveText(`${BASE_URL}/portal/${twinId}`, { timeout: FIRST_LOAD });
  await expect(portal.getByText("This is your test-mode portal")).toBeVisible();
  await checkPage(page, "settings-branding-test-mode", portal.getByTestId("portal-link"));
  await page.context().close();
});

test("customer page in test mode: simulate the end of cover, and Reminders sent fills in", async ({ browser }) => {
  test.setTimeout(240_000);
  const t = await tenantWithClients(`Clock Co ${unique()}`, "test");
  const policy = await createPolicyFor(t.write, { name: `Gadget cover ${unique()}` });
  const email = `holder-${unique()}@example.test`;
  await buyPolicy(t.write, policy, email);
  await trpc(t.account, "organizations.setMode", { livemode: false });
  const customers = await trpc<{ data: { id: string; email: string }[] }>(t.account, "customers.list", { limit: 10 }, "query");
  const customer = customers.data.find((c) => c.email === email)!;

  const page = await signedInPage(browser, t.account);
  await page.goto(`/customers/${customer.id}`);
  const sent = region(page, "Reminders sent");
  await expect(sent.getByText("No renewal reminders yet")).toBeVisible({ timeout: FIRST_LOAD });
  const clock = region(page, "Simulate end of cover");
  await expect(clock).toContainText("Test mode only");
  await checkPage(page, "customer-reminders-empty", sent.getByText("No renewal reminders yet"));

  // A bad number says why.
  await clock.getByLabel("Ends in (days)").fill("400");
  await clock.getByRole("button", { name: "Simulate" }).click();
  await expect(page.locator('[id="simulate-days-error"]')).toHaveText("Enter a whole number from -365 to 365");

  // 2 days left: the 3-day reminder goes (the worker runs within seconds) and shows here.
  await clock.getByLabel("Ends in (days)").fill("2");
  await clock.getByRole("button", { name: "Simulate" }).click();
  await expect(page.getByText(/The cover now ends on/)).toBeVisible();
  const row = sent.getByRole("table").getByTestId("customer-reminder");
  await expect(row).toHaveCount(1, { timeout: 20_000 });
  await expect(row).toContainText(policy.name);
  await expect(row).toContainText("3 days");
  await expect(row.getByText(/^(queued|sent)$/)).toBeVisible();
  await expect(row.getByText("sent", { exact: true })).toBeVisible({ timeout: 20_000 });
  await checkPage(page, "customer-reminders-sent", sent);

  // End now: the cover is expired.
  await clock.getByRole("button", { name: "End now" }).click();
  await expect(page.getByText("The cover has ended: coverage.expired goes out now")).toBeVisible();
  await expect(region(page, "Coverages").getByRole("table").getByTestId("customer-coverage")).toContainText("expired");
  await expect(page.getByTestId("customer-active")).toHaveText("0 of 1");

  // Live, a customer's page has no test clock.
  const live = await otherSide(t, "live");
  const livePolicy = await createPolicyFor(live.write);
  const liveEmail = `live-${unique()}@example.test`;
  await buyPolicy(live.write, livePolicy, liveEmail);
  await trpc(t.account, "organizations.setMode", { livemode: true });
  const liveCustomers = await trpc<{ data: { id: string; email: string }[] }>(t.account, "customers.list", { limit: 10 }, "query");
  await page.goto(`/customers/${liveCustomers.data.find((c) => c.email === liveEmail)!.id}`);
  await expect(region(page, "Reminders sent").getByText("No renewal reminders yet")).toBeVisible({ timeout: FIRST_LOAD });
  await expect(page.getByRole("region", { name: "Simulate end of cover" })).toHaveCount(0);
  await page.context().close();
});
