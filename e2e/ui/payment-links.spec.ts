// Payment links in the browser (issue 26): the owner makes a link to a policy
// on the Payment links page (field errors first), sees its QR code, opens its
// public page as an anonymous visitor (no JavaScript at all on it), buys
// through the checkout, and then sees the payment attributed to the link and
// the link's figures moved. Pages checked at 1280 and 390 px (axe, no
// sideways scroll) by checkPage.
import { expect, test } from "@playwright/test";
import { createPolicyFor, tenantWithClients } from "../api/_helpers";
import { unique } from "../support/api";
import { checkPage, FIRST_LOAD, signedInPage } from "../support/screens";

test("an owner shares a payment link; a visitor buys from its page; the link's figures and the payment show it", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const business = `Okada Insure ${unique()}`;
  const t = await tenantWithClients(business);
  const policy = await createPolicyFor(t.write, { name: `Okada cover ${unique()}`, price: "2500.00", duration: "monthly" });

  // ---- The dashboard: a new link, its errors first ----
  const page = await signedInPage(browser, t.account);
  await page.goto("/payment-links");
  await expect(page.getByText("No payment links yet")).toBeVisible({ timeout: FIRST_LOAD });
  await checkPage(page, "payment-links-empty", page.getByText("No payment links yet"));
  await page.getByRole("button", { name: "New link" }).click();
  const dialog = page.getByRole("dialog", { name: "New payment link" });
  await dialog.getByLabel("After paying, send the customer to (optional)").fill("not a url");
  await dialog.getByRole("button", { name: "Create link" }).click();
  await expect(dialog.getByText("Choose a policy", { exact: true })).toBeVisible();
  await expect(dialog.getByText("Enter a web address starting with http:// or https://")).toBeVisible();
  await dialog.getByLabel("After paying, send the customer to (optional)").fill("");
  await dialog.getByLabel("Policy").selectOption({ label: `${policy.name} · ₦2,500.00` });
  await dialog.getByLabel("Label (optional)").fill("Motor park flyer");
  await dialog.getByLabel("Ask for the customer's phone number").check();
  await dialog.getByRole("button", { name: "Create link" }).click();

  // Made: its QR code first, to print.
  const qr = page.getByRole("dialog", { name: "QR code" });
  await expect(qr.getByTestId("payment-link-qr")).toBeVisible();
  await expect(qr.getByRole("button", { name: "Download PNG" })).toBeEnabled();
  const png = page.waitForEvent("download");
  await qr.getByRole("button", { name: "Download PNG" }).click();
  expect((await png).suggestedFilename()).toMatch(/^payment-link-.+\.png$/);
  await checkPage(page, "payment-link-qr", qr.getByTestId("payment-link-qr"));
  await page.keyboard.press("Escape");
  const row = page.getByTestId("payment-link-row").filter({ hasText: "Motor park flyer" });
  await expect(row).toContainText("asks phone");
  const url = (await row.getByTestId("payment-link-url").textContent())!.trim();
  expect(url).toMatch(/\/buy\/[A-Za-z0-9_-]{12}$/);
  await checkPage(page, "payment-links", row);

  // ---- The public page, as an anonymous visitor: no script, field errors at once ----
  const visitor = await (await browser.newContext()).newPage();
  const scripts: string[] = [];
  visitor.on("request", (r) => r.resourceType() === "script" && scripts.push(r.url()));
  await visitor.goto(url);
  await expect(visitor.getByRole("heading", { name: policy.name, level: 1 })).toBeVisible();
  await expect(visitor.getByText("₦2,500.00 per month")).toBeVisible();
  await checkPage(visitor, "buy-page", visitor.getByRole("button", { name: /Continue to payment/ }));
  await visitor.getByRole("button", { name: /Continue to payment/ }).click();
  await expect(visitor.getByRole("alert")).toHaveText("Check the 2 fields marked below.");
  await expect(visitor.getByText("Enter your name")).toBeVisible();
  await expect(visitor.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
  await checkPage(visitor, "buy-page-errors", visitor.getByRole("alert"));
  const customer = `buyer-${unique()}@example.test`;
  await visitor.getByLabel("Full name").fill("Chiamaka Eze");
  await visitor.getByLabel("Email").fill(customer);
  await visitor.getByLabel("Phone number").fill("0803 123 4567");
  // A monthly policy: "Renew automatically" starts ticked, with its agreement; unticked here, the checkout's box starts unticked.
  await expect(visitor.getByLabel("Renew automatically")).toBeChecked();
  await expect(visitor.getByText(/charges the card I pay with ₦2,500\.00 every month/)).toBeVisible();
  await visitor.getByLabel("Renew automatically").uncheck();
  // Its page and its answer with errors loaded no script at all (the checkout, next, is the app's).
  expect(scripts, "the link's page loads no JavaScript").toEqual([]);
  await visitor.getByRole("button", { name: /Continue to payment/ }).click();

  // ---- The checkout ----
  await expect(visitor).toHaveURL(/\/pay\/cdp_/);
  // In the business's colours, the name given on the link's page already filled in.
  await expect(visitor.getByTestId("checkout-business")).toContainText(business);
  await expect(visitor.getByLabel("Your name (optional)")).toHaveValue("Chiamaka Eze");
  await expect(visitor.getByRole("checkbox", { name: "Renew automatically" })).not.toBeChecked();
  await visitor.getByLabel("Card number").fill("4242 4242 4242 4242");
  // The expiry is formatted as it is typed.
  await visitor.getByLabel("Expiry").pressSequentially("1230");
  await expect(visitor.getByLabel("Expiry")).toHaveValue("12/30");
  await checkPage(visitor, "checkout-from-link", visitor.getByRole("button", { name: "Pay now" }));
  await visitor.getByLabel("CVC").fill("123");
  await visitor.getByRole("button", { name: "Pay now" }).click();
  await expect(visitor.getByRole("heading", { name: "Payment successful" })).toBeVisible();

  // ---- Back in the dashboard: the link's figures, and its payment ----
  await page.reload();
  const figures = page
    .getByTestId("payment-link-row")
    .filter({ hasText: "Motor park flyer" })
    .getByTestId("payment-link-figures");
  await expect(figures).toContainText("Payments started1");
  await expect(figures).toContainText("Paid1");
  await expect(figures).toContainText("₦2,500.00");
  await expect(async () => {
    await page.reload();
    await expect(figures).toContainText(/Page views[1-9]/, { timeout: 1000 }); // counted in batches
  }).toPass({ timeout: 15_000 });
  await page
    .getByTestId("payment-link-row")
    .filter({ hasText: "Motor park flyer" })
    .getByRole("link", { name: "Its payments" })
    .click();
  await expect(page).toHaveURL(/paymentLinkId=/);
  const payments = page.getByRole("table", { name: "Payments" });
  await expect(payments.getByRole("row").filter({ hasText: "Chiamaka Eze" })).toBeVisible({ timeout: FIRST_LOAD });
  await expect(payments.locator("tbody tr")).toHaveCount(1);

  // ---- The customer's page: a payment for them, their email already given ----
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Customers" }).click();
  await page
    .getByRole("table", { name: "Customers" })
    .locator("tbody tr")
    .filter({ hasText: customer })
    .getByRole("link")
    .first()
    .click();
  await page.getByRole("button", { name: "Create payment" }).click({ timeout: FIRST_LOAD });
  const create = page.getByRole("dialog", { name: "Create payment" });
  await expect(create).toContainText(`A checkout link for ${customer}`);
  await create.getByRole("button", { name: "Create payment" }).click();
  await expect(create.getByText("Choose a policy", { exact: true })).toBeVisible();
  await create.getByLabel("Policy").selectOption({ label: `${policy.name} · ₦2,500.00` });
  await create.getByRole("button", { name: "Create payment" }).click();
  await expect(create.getByTestId("customer-payment-link")).toHaveText(/\/pay\/cdp_/);
  await checkPage(page, "customer-create-payment", create.getByTestId("customer-payment-link"));
});

test("a test-mode link's page says TEST, at both widths, accessible", async ({ page }) => {
  const t = await tenantWithClients(undefined, "test");
  const policy = await createPolicyFor(t.write, { name: `Test cover ${unique()}` });
  const link = (await (
    await t.write.post("business/payment-links", { data: { policyId: policy.id, collectPhone: true } })
  ).json()) as {
    url: string;
  };
  await page.goto(link.url);
  await expect(page.getByText("TEST", { exact: true })).toBeVisible();
  await expect(page.getByText(/Test mode: pay with a test card/)).toBeVisible();
  await checkPage(page, "buy-page-test-mode", page.getByRole("button", { name: /Continue to payment/ }));
});
