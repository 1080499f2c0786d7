// The dashboard home and the analytics page in the browser: a new business is
// told what to do next; after a real purchase on the hosted checkout and a
// claim filed over REST the home shows those very figures, for the period in
// the URL; an export link downloads a CSV; the analytics page counts the
// requests the spec's key made. Each page is checked at 1280 and 390 px (axe,
// no sideways scroll) and shot into test-results/screens (checkPage).
import fs from "node:fs/promises";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { buyPolicy, createPolicyFor, joinTeam, ok, tenantWithClients } from "../api/_helpers";
import { createKey, restClient, signUp, trpc, unique } from "../support/api";
import { checkPage, FIRST_LOAD, SCREENS_DIR, signedInPage } from "../support/screens";

const money = (amount: string) =>
  new Intl.NumberFormat("en-NG", { style: "currency", currency: "NGN", minimumFractionDigits: 2 }).format(Number(amount));

const main = (page: Page) => page.getByRole("main");
const todos = (page: Page) => page.getByTestId("todos");

test("a new business sees what to do next and the three to-dos, each linking to its page", async ({ browser }) => {
  test.setTimeout(180_000);
  const account = await signUp({ name: "Ngozi Adeyemi" });
  const page = await signedInPage(browser, account);
  // Next's prefetches of this page's links (an `_rsc` query); the sidebar's are off (see below).
  const prefetched: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.searchParams.has("_rsc")) prefetched.push(url.pathname);
  });
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Welcome, Ngozi", level: 1 })).toBeVisible({ timeout: FIRST_LOAD });

  const start = page.getByTestId("getting-started");
  await expect(start.getByRole("heading", { name: "Sell your first policy" })).toBeVisible({ timeout: 30_000 });
  await expect(start.getByRole("link", { name: "Create a policy" })).toHaveAttribute("href", "/policies/new");
  await expect(start.getByRole("link", { name: "Read the API docs" })).toHaveAttribute("href", "/docs");
  // No wall of zeros for a business that has sold nothing.
  await expect(page.getByTestId("stat-revenue")).toHaveCount(0);

  const steps = todos(page).getByRole("listitem");
  await expect(steps).toHaveCount(3);
  await expect(todos(page)).toContainText("0 of 3 done");
  await expect(todos(page).getByRole("link", { name: /Finish your business verification \(KYB\)/ })).toHaveAttribute(
    "href",
    "/kyb",
  );
  await expect(todos(page).getByRole("link", { name: /Verify a bank account/ })).toHaveAttribute("href", "/bank-accounts");
  await expect(todos(page).getByRole("link", { name: /Create an API key/ })).toHaveAttribute("href", "/api-keys");

  const usage = main(page).getByRole("region", { name: "API usage" });
  await expect(usage.getByText("No API requests in this period")).toBeVisible({ timeout: 30_000 });
  await checkPage(page, "home-new", start);
  // The sidebar's links do not prefetch: each page is rendered per request, so a prefetch fetched only its
  // route's tree, a dozen requests to the server per page view. (The page's own links — the to-dos — keep
  // Next's default; these are the sidebar's alone, each prefetched here before.)
  const sidebarOnly = ["/payment-links", "/renewals", "/customers", "/documents", "/team", "/webhooks"];
  expect(prefetched.filter((p) => sidebarOnly.includes(p))).toEqual([]);

  await todos(page)
    .getByRole("link", { name: /Create an API key/ })
    .click();
  await expect(page).toHaveURL(/\/api-keys$/, { timeout: FIRST_LOAD });
  await page.context().close();
});

test("after a purchase on the hosted checkout and a claim over REST the home shows those figures, for the period in the URL", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const account = await signUp({ name: "Tolu Bakare" });
  const page = await signedInPage(browser, account);
  const customer = `buyer-${unique()}@example.test`;
  const policyName = `Shop Guard ${unique()}`;
  const policy = await trpc<{ id: string; price: string }>(account, "policies.create", {
    name: policyName,
    type: "property",
    duration: "yearly",
    price: "4500",
  });

  // ---- The customer pays on the hosted checkout ----
  const payment = await trpc<{ reference: string; authorizationUrl: string }>(account, "payments.initialize", {
    email: customer,
    policyId: policy.id,
    amount: 4500,
  });
  await page.goto(payment.authorizationUrl);
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry").fill("12/30");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Pay now" }).click();
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible({ timeout: 30_000 });

  // ---- Before any API key: the to-do is there ----
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Welcome, Tolu", level: 1 })).toBeVisible({ timeout: FIRST_LOAD });
  await expect(todos(page).getByRole("link", { name: /Create an API key/ })).toBeVisible({ timeout: 30_000 });

  // ---- A key, and a claim filed with it ----
  const key = await createKey(account, ["read", "write"], "Back office");
  const api = await restClient(key.key);
  const claim = await ok(
    await api.post("claims", {
      data: {
        policyId: policy.id,
        type: "theft",
        description: "Till drawer forced open overnight",
        amount: 1200,
        email: customer,
      },
    }),
    201,
  );
  await api.dispose();

  await page.reload();
  await expect(page.getByTestId("stat-revenue")).toHaveText(money("4500"), { timeout: 30_000 });
  await expect(page.getByTestId("stat-policies-sold")).toHaveText("1");
  await expect(page.getByTestId("stat-active-coverages")).toHaveText("1");
  await expect(page.getByTestId("stat-open-claims")).toHaveText("1");
  await expect(page.getByTestId("stat-loss-ratio")).toHaveText("0.0%"); // the claim is not approved
  await expect(page.getByTestId("stat-available-balance")).toHaveText(money("4432.50")); // 4,500.00 − 1.5 % fee
  await expect(main(page).getByText("New this period")).toHaveCount(2); // nothing in the previous 30 days
  await expect(main(page).getByRole("link", { name: "Go to earnings" })).toHaveAttribute("href", "/earnings");
  await expect(page.getByTestId("revenue-gross")).toHaveText(money("4500"));
  await expect(page.getByTestId("revenue-net")).toHaveText(money("4432.50"));
  await expect(page.getByTestId("revenue-chart")).toBeVisible();
  await expect(page.getByTestId("getting-started")).toHaveCount(0);

  // The key exists now: its to-do is gone, the other two remain.
  await expect(todos(page).getByRole("listitem")).toHaveCount(2);
  await expect(todos(page).getByRole("link", { name: /Create an API key/ })).toHaveCount(0);
  await expect(todos(page)).toContainText("1 of 3 done");

  const top = page.getByTestId("top-policy");
  await expect(top).toHaveCount(1);
  await expect(top.getByRole("link", { name: policyName })).toHaveAttribute("href", `/policies/${policy.id}`);
  await expect(top).toContainText("1 sold");
  const paymentRow = page.getByTestId("recent-payment");
  await expect(paymentRow).toHaveCount(1);
  await expect(paymentRow).toContainText(customer);
  await expect(paymentRow).toContainText(money("4500"));
  await expect(paymentRow).toContainText("success");
  const claimRow = page.getByTestId("recent-claim");
  await expect(claimRow).toHaveCount(1);
  await expect(claimRow).toContainText("Theft claim");
  await expect(claimRow).toContainText(money("1200"));
  await expect(claimRow).toContainText("submitted");
  await expect(claimRow.getByRole("link")).toHaveAttribute("href", `/claims/${claim.id}`);

  // The feed: the purchase and the claim (with the payment), newest first, each a link.
  const feed = page.getByTestId("activity-item");
  await expect(feed.filter({ hasText: `${customer} bought ${policyName}` })).toHaveCount(1);
  await expect(feed.filter({ hasText: `${customer} bought ${policyName}` }).getByRole("link")).toHaveAttribute(
    "href",
    `/policies/${policy.id}`,
  );
  const claimItem = feed.filter({ hasText: /Theft claim of .* filed on/ });
  await expect(claimItem).toHaveCount(1);
  await expect(claimItem.getByRole("link")).toHaveAttribute("href", `/claims/${claim.id}`);
  await expect(claimItem.locator("time")).toHaveText(/just now|minute/);
  await expect(feed.first()).toHaveAttribute("data-type", "claim.submitted");
  await checkPage(page, "home", page.getByTestId("stat-revenue"));

  // ---- The period lives in the URL ----
  await page.getByRole("button", { name: "Last 7 days" }).click();
  await expect(page).toHaveURL(/[?&]from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}/);
  await expect(page.getByRole("button", { name: "Last 7 days" })).toHaveAttribute("aria-pressed", "true");
  await page.reload();
  await expect(page.getByRole("button", { name: "Last 7 days" })).toHaveAttribute("aria-pressed", "true", {
    timeout: FIRST_LOAD,
  });
  await expect(page.getByTestId("stat-revenue")).toHaveText(money("4500"), { timeout: 30_000 });

  // A period long before the sale: nothing sold in it, and the reload keeps it.
  await page.getByLabel("From", { exact: true }).fill("2025-01-01");
  await page.getByLabel("To", { exact: true }).fill("2025-01-31");
  await expect(page).toHaveURL(/from=2025-01-01&to=2025-01-31/);
  await page.reload();
  await expect(page.getByLabel("From", { exact: true })).toHaveValue("2025-01-01", { timeout: FIRST_LOAD });
  await expect(page.getByTestId("stat-revenue")).toHaveText(money("0"), { timeout: 30_000 });
  await expect(page.getByTestId("stat-policies-sold")).toHaveText("0");
  await expect(page.getByText("No revenue in this period")).toBeVisible();
  await expect(page.getByTestId("top-policy")).toHaveCount(0);
  // Not a period figure: the coverage is active today, the payment is still the newest.
  await expect(page.getByTestId("stat-active-coverages")).toHaveText("1");
  await expect(page.getByTestId("recent-payment")).toHaveCount(1);
  // A reversed range is refused in the form, the figures stay.
  await page.getByLabel("To", { exact: true }).fill("2024-12-01");
  await expect(page.getByText("Choose a start date on or before the end date")).toBeVisible();
  await expect(page).toHaveURL(/to=2025-01-31/);
  await page.context().close();

  // ---- A MEMBER sees the figures but no to-dos (the steps are owner/admin actions) ----
  const org = await trpc<{ id: string }>(account, "organizations.current", undefined, "query");
  const write = await restClient(key.key);
  const { account: member } = await joinTeam({ write, organizationId: org.id }, "MEMBER");
  await write.dispose();
  const memberPage = await signedInPage(browser, member);
  await memberPage.goto("/");
  await expect(memberPage.getByTestId("stat-revenue")).toHaveText(money("4500"), { timeout: FIRST_LOAD });
  await expect(memberPage.getByTestId("stat-open-claims")).toHaveText("1");
  await expect(memberPage.getByTestId("todos")).toHaveCount(0);
  await expect(memberPage.getByRole("link", { name: /Create an API key|Verify a bank account/ })).toHaveCount(0);
  await checkPage(memberPage, "member-home", memberPage.getByTestId("stat-revenue"));
  await memberPage.context().close();
});

test("the period in the address comes with the page; one the browser cannot load says so, and Try again loads it", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const t = await tenantWithClients();
  const policy = await createPolicyFor(t.write, { price: "150.00" });
  await buyPolicy(t.write, policy, `retry-${unique()}@example.test`);
  const page = await signedInPage(browser, t.account);
  // The dashboard's stats asked for by the browser fail (after react-query's own retries) until the route is lifted.
  let failing = true;
  let asked = 0;
  await page.route(/\/api\/trpc\/[^?]*analytics\.dashboard/, (route) => {
    asked++;
    return failing ? route.fulfill({ status: 500, contentType: "application/json", body: "{}" }) : route.continue();
  });
  // The first figures are rendered on the server: in the HTML, and the browser does not ask for them.
  const response = await page.goto("/");
  expect(await response!.text()).toContain('data-testid="stat-revenue"');
  await expect(page.getByTestId("stat-revenue")).toHaveText(money("150"), { timeout: FIRST_LOAD });
  expect(asked).toBe(0);
  // Another period is the browser's to load.
  await page.getByRole("button", { name: "Last 7 days" }).click();
  const alert = main(page).getByRole("alert").filter({ hasText: "Could not load this" }).first();
  await expect(alert).toBeVisible({ timeout: FIRST_LOAD });
  await expect(page.getByTestId("stat-revenue")).toHaveCount(0);
  failing = false;
  await alert.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByTestId("stat-revenue")).toHaveText(money("150"), { timeout: 30_000 });
  await page.context().close();
});

test("an export link downloads the period's revenue as CSV with its header row", async ({ browser }) => {
  test.setTimeout(180_000);
  const t = await tenantWithClients();
  const policy = await createPolicyFor(t.write, { price: "150.00" });
  await buyPolicy(t.write, policy, `csv-${unique()}@example.test`);
  const page = await signedInPage(browser, t.account);
  await page.goto("/");
  await expect(page.getByTestId("stat-revenue")).toHaveText(money("150"), { timeout: FIRST_LOAD });

  await page.getByRole("button", { name: "Export" }).click();
  const item = page.getByRole("menuitem", { name: "Revenue, CSV" });
  const href = await item.getAttribute("href");
  expect(href).toMatch(/^\/api\/export\?type=revenue&format=csv&from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}$/);
  await expect(page.getByRole("menuitem", { name: "API usage, Excel" })).toHaveAttribute("href", /type=api-usage&format=xlsx/);
  const downloading = page.waitForEvent("download");
  await item.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const text = await fs.readFile(await download.path(), "utf8");
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n/);
  expect(lines[0]).toBe("date,gross,fees,net,currency");
  expect(lines.filter((l) => l.includes("150.00"))).toHaveLength(1);

  // At phone width the menu stays on screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("button", { name: "Export" }).click();
  const box = (await page.getByRole("menu").boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await fs.mkdir(SCREENS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENS_DIR, "home-export-menu-390.png") });
  await page.keyboard.press("Escape");
  await page.setViewportSize({ width: 1280, height: 800 });

  // The payments export of the same period lists the sale.
  await page.getByRole("button", { name: "Export" }).click();
  const paymentsDownload = page.waitForEvent("download");
  await page.getByRole("menuitem", { name: "Payments, CSV" }).click();
  const payments = (await fs.readFile(await (await paymentsDownload).path(), "utf8")).replace(/^\uFEFF/, "").split(/\r\n/);
  expect(payments[0]).toBe("reference,createdAt,status,amount,currency,policyId,email,paidAt");
  expect(payments.filter((l) => l.includes(policy.id))).toHaveLength(1);
  await page.context().close();
});

test("the analytics page counts the requests the key made, per endpoint and per key", async ({ browser }) => {
  test.setTimeout(180_000);
  const t = await tenantWithClients();
  const page = await signedInPage(browser, t.account);

  // Before any request: the empty state points to the keys and the docs.
  await page.goto("/analytics");
  await expect(page.getByRole("heading", { name: "Analytics", level: 1 })).toBeVisible({ timeout: FIRST_LOAD });
  await expect(page.getByText("No API requests in this period")).toBeVisible({ timeout: 30_000 });
  await expect(main(page).getByRole("link", { name: "Manage API keys" })).toHaveAttribute("href", "/api-keys");
  await expect(main(page).getByRole("link", { name: "Read the API docs" })).toHaveAttribute("href", "/docs");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Analytics" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await checkPage(page, "analytics-empty", page.getByText("No API requests in this period"));

  // 3 lists, 1 creation, 2 reads of it, 1 refused creation, and a sale (initialize, then verify after
  // the hosted checkout, which is no API call): 9 requests, 1 error.
  for (let i = 0; i < 3; i++) await ok(await t.write.get("business/policies"));
  const policy = await createPolicyFor(t.write, { name: `Stall Cover ${unique()}`, price: "150.00" });
  for (let i = 0; i < 2; i++) await ok(await t.write.get(`business/policies/${policy.id}`));
  expect((await t.write.post("business/policies", { data: { name: "" } })).status()).toBe(422);
  await buyPolicy(t.write, policy, `usage-${unique()}@example.test`);

  const endpoints = page.getByRole("table", { name: "Endpoints" });
  const row = (method: string, route: string) =>
    endpoints
      .locator("tbody tr")
      .filter({ has: page.getByText(method, { exact: true }) })
      .filter({
        has: page.getByText(route, { exact: true }),
      });
  // Metering flushes every 250 ms: reload until the counts are in.
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("usage-requests")).toHaveText("9", { timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
  await expect(row("GET", "/business/policies").locator("td")).toHaveText([
    "GET/business/policies",
    "3",
    "0",
    "0.0%",
    /ms$/,
    /ms$/,
  ]);
  await expect(row("POST", "/business/policies").locator("td").nth(1)).toHaveText("2");
  await expect(row("POST", "/business/policies").locator("td").nth(2)).toHaveText("1");
  await expect(row("POST", "/business/policies").locator("td").nth(3)).toHaveText("50.0%");
  await expect(row("GET", "/business/policies/{id}").locator("td").nth(1)).toHaveText("2");
  await expect(page.getByTestId("usage-error-rate")).toHaveText("11.1%"); // 1 of 9

  const keys = page.getByRole("table", { name: "API keys" }).locator("tbody tr");
  await expect(keys).toHaveCount(1);
  const keyInfo = (
    await trpc<{ data: { id: string; name: string; prefix: string }[] }>(t.account, "apiKeys.list", { limit: 100 }, "query")
  ).data.find((k) => k.id === t.writeKeyId)!;
  await expect(keys.locator("td").first()).toContainText(keyInfo.name);
  await expect(keys.locator("td").first()).toContainText(keyInfo.prefix);
  await expect(keys.locator("td").nth(1)).toHaveText("9");
  await expect(page.getByTestId("usage-chart")).toBeVisible();

  // The sale, by policy, with the policy's page a click away.
  const sold = page.getByRole("table", { name: "Revenue by policy" }).locator("tbody tr");
  await expect(sold).toHaveCount(1);
  await expect(sold.locator("td")).toHaveText([policy.name, "1", money("150"), money("2.25"), money("147.75")]);
  await expect(sold.getByRole("link", { name: policy.name })).toHaveAttribute("href", `/policies/${policy.id}`);

  // Hourly buckets, kept in the URL with the period.
  await page.getByLabel("Buckets").selectOption("hour");
  await expect(page).toHaveURL(/granularity=hour/);
  await expect(page.getByRole("heading", { name: "Requests and errors per hour" })).toBeVisible();
  await expect(page.getByRole("menuitem")).toHaveCount(0);
  await page.getByRole("button", { name: "Export" }).click();
  await expect(page.getByRole("menuitem", { name: "API usage, CSV" })).toHaveAttribute(
    "href",
    /type=api-usage&format=csv.*granularity=hour/,
  );
  await page.keyboard.press("Escape");
  await checkPage(page, "analytics", page.getByTestId("usage-requests"));

  // At phone width the table is a list of cards, every figure labelled.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(endpoints).toBeHidden();
  const card = page.getByRole("list", { name: "Endpoints" }).getByRole("listitem").filter({ hasText: "/business/policies/{id}" });
  await expect(card).toBeVisible();
  for (const label of ["Requests", "Errors", "Error rate", "p50", "p95"]) {
    await expect(card.getByText(label, { exact: true })).toBeVisible();
  }
  await page.context().close();
});
