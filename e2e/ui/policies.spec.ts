// The policy journey in the dashboard: publish a policy with benefits through the
// form, find it in the list and through the REST API, take it off sale, put it
// back, soft-delete it — and the same pages at phone width. Each page is
// checked at 1280 and 390 px (axe, no sideways scroll) and shot (checkPage);
// the sales chart of a policy that sold shows its values.
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { buyPolicy, createPolicyFor, tenantWithClients } from "../api/_helpers";
import { BASE_URL, createKey, problem, restClient, tenant, unique, type Account } from "../support/api";
import { checkPage, clippedElements, FIRST_LOAD, SCREENS_DIR, signedInPage } from "../support/screens";

/** The browser context's own session, usable with the tRPC helpers (page.request shares its cookies). */
const browserAccount = (page: Page): Account => ({ session: page.request, email: "", password: "", userId: "" });

async function signUpInBrowser(page: Page, name: string, business: string) {
  await page.goto("/sign-up");
  await page.getByLabel("Your name").fill(name);
  await page.getByLabel("Business name").fill(business);
  await page.getByLabel("Work email").fill(`policies-${unique()}@example.test`);
  await page.getByLabel("Password").fill("correct-horse-battery");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: `Welcome, ${name.split(" ")[0]}` })).toBeVisible();
}

const policyIdFrom = (page: Page) => new URL(page.url()).pathname.split("/").pop()!;

test("create a policy with benefits, see it listed and in the API, take it off sale, delete it", async ({ page }) => {
  test.setTimeout(120_000);
  await signUpInBrowser(page, "Chidi Okeke", "Harbour Cover Ltd");

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Policies" }).click();
  await expect(page.getByRole("heading", { name: "Policies", level: 1 })).toBeVisible();
  await expect(page.getByText("Publish your first policy")).toBeVisible();
  await checkPage(page, "policies-empty", page.getByText("Publish your first policy"));

  await page.getByRole("link", { name: "New policy" }).click();
  await expect(page).toHaveURL(/\/policies\/new$/);
  await expect(page.getByRole("heading", { name: "New policy" })).toBeVisible();

  // The form's own checks run before anything is sent.
  await page.getByRole("button", { name: "Create policy" }).click();
  await expect(page.getByText("Enter a name")).toBeVisible();
  await expect(page.getByText(/^Enter (a price|an amount greater than 0)/)).toBeVisible();
  await expect(page).toHaveURL(/\/policies\/new$/);
  await checkPage(page, "policies-new-errors", page.getByText("Enter a name"));

  await page.getByLabel("Name").fill("Motor Comprehensive");
  await page.getByLabel("Type").selectOption("auto");
  await page.getByLabel("Duration").selectOption("quarterly");
  await page.getByLabel("Price (NGN)").fill("2500.5");
  await page.getByLabel("Description").fill("Full cover for private cars.");

  // Benefits: one with the Add button, one with Enter; the input empties after each.
  const benefitInput = page.getByRole("textbox", { name: "Benefits", exact: true });
  await benefitInput.fill("Roadside assistance");
  await page.getByRole("button", { name: "Add to Benefits" }).click();
  await expect(benefitInput).toHaveValue("");
  await benefitInput.fill("Courtesy car for 7 days");
  await benefitInput.press("Enter");
  await expect(benefitInput).toHaveValue("");
  const exclusionInput = page.getByRole("textbox", { name: "Exclusions", exact: true });
  await exclusionInput.fill("Racing");
  await page.getByRole("button", { name: "Add to Exclusions" }).click();

  const formBenefits = page.getByRole("list", { name: "Benefits" }).getByRole("listitem");
  await expect(formBenefits).toHaveText(["Roadside assistance", "Courtesy car for 7 days"]);
  await expect(page.getByRole("list", { name: "Exclusions" }).getByRole("listitem")).toHaveText(["Racing"]);
  await page.evaluate(() => window.scrollTo(0, 0)); // the sticky header would repeat in a scrolled full-page shot
  await checkPage(page, "policies-new", page.getByRole("list", { name: "Exclusions" }));

  await page.getByRole("button", { name: "Create policy" }).click();

  // Landed on the policy page.
  await expect(page).toHaveURL(/\/policies\/(?!new$)[^/]+$/);
  await expect(page.getByRole("heading", { name: "Motor Comprehensive", level: 1 })).toBeVisible();
  const id = policyIdFrom(page);
  const main = page.getByRole("main");
  await expect(main).toContainText("Quarterly");
  await expect(main).toContainText("2,500.50");
  await expect(main).toContainText("Full cover for private cars.");
  await expect(page.getByRole("list", { name: "Benefits" }).getByRole("listitem")).toHaveText([
    "Roadside assistance",
    "Courtesy car for 7 days",
  ]);
  await expect(page.getByRole("list", { name: "Exclusions" }).getByRole("listitem")).toHaveText(["Racing"]);
  await expect(main).toContainText(id);
  const onSale = page.getByRole("switch", { name: "On sale" });
  await expect(onSale).toHaveAttribute("aria-checked", "true");
  await expect(main.getByText("Performance")).toBeVisible();
  await checkPage(page, "policies-detail", main.getByText("Performance"));

  // The edit page: the same form, filled in.
  await main.getByRole("link", { name: "Edit" }).click();
  await expect(page.getByRole("heading", { name: "Edit “Motor Comprehensive”", level: 1 })).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveValue("Motor Comprehensive");
  await checkPage(page, "policies-edit", page.getByRole("list", { name: "Benefits" }));
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page).toHaveURL(new RegExp(`/policies/${id}$`));

  // Back to the list: it is there, active, with its price.
  await main.getByRole("link", { name: "Policies" }).click();
  const row = page.getByTestId("policy-row").filter({ hasText: "Motor Comprehensive" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Auto");
  await expect(row).toContainText("2,500.50");
  await expect(row).toContainText("Active");
  await expect(page.getByText("Publish your first policy")).toHaveCount(0);
  await checkPage(page, "policies-list", row);

  // Immediately visible through the REST API with a key of this organization, and to no other.
  const key = await createKey(browserAccount(page), ["read"]);
  const api = await restClient(key.key);
  const listed = await (await api.get("business/policies")).json();
  expect(listed.data).toHaveLength(1);
  expect(listed.data[0]).toMatchObject({
    id,
    name: "Motor Comprehensive",
    type: "auto",
    duration: "quarterly",
    price: "2500.50",
    currency: "NGN",
    description: "Full cover for private cars.",
    coverage: null,
    benefits: ["Roadside assistance", "Courtesy car for 7 days"],
    exclusions: ["Racing"],
    isActive: true,
  });
  const stranger = await tenant();
  const strangerApi = await restClient(stranger.readKey);
  expect((await (await strangerApi.get("business/policies")).json()).data).toEqual([]);
  await problem(await strangerApi.get(`business/policies/${id}`), 404, "not_found");

  // Take it off sale, then back on.
  await row.getByRole("link", { name: "Motor Comprehensive" }).click();
  await expect(page).toHaveURL(new RegExp(`/policies/${id}$`));
  await expect(onSale).toHaveAttribute("aria-checked", "true");
  await onSale.click();
  await expect(onSale).toHaveAttribute("aria-checked", "false");
  await expect(main.getByText("Inactive", { exact: true })).toBeVisible();
  await expect(main.getByText("Not on sale")).toBeVisible();
  await expect(main.getByRole("button", { name: "Delete" })).toHaveCount(0);
  expect((await (await api.get(`business/policies/${id}`)).json()).isActive).toBe(false);

  await onSale.click();
  await expect(onSale).toHaveAttribute("aria-checked", "true");
  await expect(main.getByText("Active", { exact: true })).toBeVisible();
  expect((await (await api.get(`business/policies/${id}`)).json()).isActive).toBe(true);

  // Delete: the dialog explains the soft delete; the policy stays, inactive.
  await main.getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText("Delete “Motor Comprehensive”?");
  await expect(confirm).toContainText("soft delete");
  await expect(confirm).toContainText("stays listed as inactive");
  await checkPage(page, "policies-delete-dialog", confirm);
  await confirm.getByRole("button", { name: "Delete policy" }).click();
  await expect(confirm).toBeHidden();
  await expect(onSale).toHaveAttribute("aria-checked", "false");
  await expect(main.getByText("Inactive", { exact: true })).toBeVisible();
  const after = await (await api.get(`business/policies/${id}`)).json();
  expect(after).toMatchObject({ id, isActive: false, benefits: ["Roadside assistance", "Courtesy car for 7 days"] });

  // Still listed, as inactive; the status filter finds it under Inactive only.
  await main.getByRole("link", { name: "Policies" }).click();
  await expect(row).toContainText("Inactive");
  const status = page.getByRole("combobox", { name: "Status" });
  await status.selectOption("false");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Inactive");
  await status.selectOption("true");
  await expect(page.getByText("No policies match")).toBeVisible();
  await expect(page.getByTestId("policy-row")).toHaveCount(0);
  await status.selectOption("all");
  await expect(row).toHaveCount(1);

  await Promise.all([api.dispose(), strangerApi.dispose()]);
});

test("the policy pages work at phone width: nothing overflows horizontally", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  // Sign up through the auth endpoint: page.request shares the browser's cookies.
  const res = await page.request.post("/api/auth/sign-up/email", {
    headers: { Origin: BASE_URL },
    data: {
      name: "Bola Ade",
      email: `phone-${unique()}@example.test`,
      password: "correct-horse-battery",
      organizationName: "Mobile Cover Ltd",
    },
  });
  expect(res.ok(), await res.text()).toBe(true);

  const noOverflow = async (what: string) => {
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `${what} scrollWidth`).toBeLessThanOrEqual(390);
  };

  await page.goto("/policies");
  await expect(page.getByText("Publish your first policy")).toBeVisible();
  await noOverflow("empty list");

  await page.getByRole("link", { name: "New policy" }).click();
  await page.getByLabel("Name").fill("Comprehensive Family Health Cover With Dental and Optical Extras");
  await page.getByLabel("Type").selectOption("health");
  await page.getByLabel("Price (NGN)").fill("1250000.00");
  const benefits = page.getByRole("textbox", { name: "Benefits", exact: true });
  for (const b of ["Outpatient and inpatient care at partner hospitals nationwide", "Annual dental check-up"]) {
    await benefits.fill(b);
    await benefits.press("Enter");
  }
  await page.getByRole("textbox", { name: "Exclusions", exact: true }).fill("Cosmetic surgery");
  await page.getByRole("button", { name: "Add to Exclusions" }).click();
  await noOverflow("form");
  await page.evaluate(() => window.scrollTo(0, 0)); // the sticky header would repeat in a scrolled full-page shot
  await page.screenshot({ path: path.join(SCREENS_DIR, "policies-long-form-390.png"), fullPage: true });
  await page.getByRole("button", { name: "Create policy" }).click();

  await expect(page.getByRole("heading", { name: /^Comprehensive Family Health Cover/, level: 1 })).toBeVisible();
  await expect(page.getByRole("list", { name: "Benefits" }).getByRole("listitem")).toHaveCount(2);
  await expect(page.getByText("Performance")).toBeVisible();
  await noOverflow("detail page");
  await page.screenshot({ path: path.join(SCREENS_DIR, "policies-long-detail-390.png"), fullPage: true });

  await page.getByRole("main").getByRole("link", { name: "Policies" }).click();
  const row = page.getByTestId("policy-row").filter({ hasText: "Comprehensive Family Health Cover" });
  await expect(row).toContainText("1,250,000.00");
  await expect(row).toContainText("Health");
  await expect(row).toContainText("Active");
  await noOverflow("list");
  // A stacked row per policy: the long name wraps, every field is labelled, nothing is cut off or scrolls sideways.
  for (const label of ["Type", "Price", "Status"]) await expect(row.locator("dt", { hasText: label })).toBeVisible();
  expect(await clippedElements(page.getByRole("list", { name: "Policies" }))).toEqual([]);
  await page.screenshot({ path: path.join(SCREENS_DIR, "policies-long-list-390.png"), fullPage: true });
});

test("the sales chart of a policy that sold shows money on its Y axis, keeps its labels inside, and a tooltip with the amount", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const t = await tenantWithClients();
  const policy = await createPolicyFor(t.write, { name: `Kiosk Cover ${unique()}`, price: "1250.00" });
  await buyPolicy(t.write, policy, `chart-${unique()}@example.test`);
  const page = await signedInPage(browser, t.account);
  await page.goto(`/policies/${policy.id}`);
  const chart = page.getByTestId("policy-sales-chart");
  await expect(chart.locator(".recharts-area-curve")).toBeVisible({ timeout: FIRST_LOAD });

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width < 640 ? 844 : 800 });
    await chart.scrollIntoViewIfNeeded();
    // The Y axis: compact money ticks, the sale's day reaching ₦1.3k or so.
    const yTicks = chart.locator(".recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value");
    await expect(yTicks.first()).toBeVisible();
    await expect(yTicks.filter({ hasText: /^₦\d+(\.\d)?[kK]?$/ }).first()).toBeVisible();
    // The first and last X labels lie inside the chart's box.
    const box = (await chart.boundingBox())!;
    const xTicks = chart.locator(".recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value");
    expect(await xTicks.count()).toBeGreaterThan(1);
    for (const tick of [xTicks.first(), xTicks.last()]) {
      const b = (await tick.boundingBox())!;
      expect(b.x, `${width} px: ${await tick.textContent()} starts inside the chart`).toBeGreaterThanOrEqual(box.x);
      expect(b.x + b.width, `${width} px: ${await tick.textContent()} ends inside the chart`).toBeLessThanOrEqual(box.x + box.width);
    }
    // Hovering today's point (the right end of the data area) names the day and the amount.
    const area = (await chart.locator(".recharts-cartesian-grid, .recharts-area").first().boundingBox())!;
    await page.mouse.move(area.x + area.width - 2, area.y + area.height / 2);
    const tooltip = chart.locator(".recharts-tooltip-wrapper");
    await expect(tooltip).toContainText("₦1,250.00");
    await expect(tooltip).toContainText(/\d{1,2} \w{3} \d{4}/);
    await page.mouse.move(0, 0);
  }
  await page.evaluate(() => window.scrollTo(0, 0)); // the sticky header would repeat in a scrolled full-page shot
  await checkPage(page, "policies-detail-sales", chart);
  await page.context().close();
});
