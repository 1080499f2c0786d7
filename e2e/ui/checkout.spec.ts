// Money in, end to end in the browser: a business sends a payment link, its
// customer is declined once and then pays on the hosted checkout, the business
// sees the payment, the policyholder and the policy's numbers move; a claim
// filed over REST is reviewed and approved in the dashboard.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { BASE_URL, createKey, restClient, trpc, unique, type Account } from "../support/api";
import { checkPage } from "../support/screens";

/** The browser context's own session, usable with the tRPC helpers (page.request shares its cookies). */
const browserAccount = (page: Page): Account => ({ session: page.request, email: "", password: "", userId: "" });

async function signUpInBrowser(page: Page, name: string, business: string) {
  await page.goto("/sign-up");
  await page.getByLabel("Your name").fill(name);
  await page.getByLabel("Business name").fill(business);
  await page.getByLabel("Work email").fill(`money-${unique()}@example.test`);
  await page.getByLabel("Password").fill("correct-horse-battery");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: `Welcome, ${name.split(" ")[0]}` })).toBeVisible();
}

async function payWithCard(page: Page, cardNumber: string) {
  await page.getByLabel("Card number").fill(cardNumber);
  await page.getByLabel("Expiry").fill("12/30");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Pay now" }).click();
}

const referenceOf = (url: string) => new URL(url).pathname.split("/pay/")[1]!;

/** The value shown under a label in the policy's Performance panel. */
const stat = (panel: Locator, label: string) =>
  panel
    .locator("dl > div")
    .filter({ has: panel.page().getByText(label, { exact: true }) })
    .locator("dd");

test("pay a payment link (declined, then paid), see it in the dashboard, then approve a claim", async ({ page }) => {
  test.setTimeout(180_000);
  const business = `Lagos Shield ${unique()}`;
  const customer = `customer-${unique()}@example.test`;
  await signUpInBrowser(page, "Amaka Eze", business);

  // A policy for sale, created through the dashboard's own API.
  const policy = await trpc<{ id: string; price: string }>(browserAccount(page), "policies.create", {
    name: "Phone Protect",
    type: "property",
    duration: "yearly",
    price: "4500",
  });
  expect(policy.price).toBe("4500.00");

  // ---- The payment link ----
  await page.goto(`/policies/${policy.id}`);
  await expect(page.getByRole("heading", { name: "Phone Protect", level: 1 })).toBeVisible();
  await page.getByRole("button", { name: "Payment for one customer" }).click();
  const dialog = page.getByRole("dialog", { name: "Payment for one customer" });
  await expect(dialog).toContainText("Phone Protect · ₦4,500.00");
  await dialog.getByRole("button", { name: "Create link" }).click();
  await expect(dialog.getByText("Enter the customer's email")).toBeVisible();
  await dialog.getByLabel("Customer email").fill(customer);
  await dialog.getByRole("button", { name: "Create link" }).click();
  const linkText = dialog.getByTestId("payment-link");
  await expect(linkText).toHaveText(new RegExp(`^${BASE_URL}/pay/[A-Za-z0-9_-]+$`));
  const link = (await linkText.textContent())!.trim();
  await expect(dialog).toContainText(`Send this link to ${customer}`);
  await expect(dialog.getByRole("link", { name: "Open checkout" })).toHaveAttribute("href", link);
  const firstReference = referenceOf(link);

  // ---- The hosted checkout, as the customer sees it ----
  await page.goto(link);
  const checkout = page.getByRole("main");
  await expect(checkout.getByText(business, { exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Phone Protect", level: 1 })).toBeVisible();
  await expect(checkout).toContainText("property insurance · yearly");
  await expect(page.getByTestId("checkout-amount")).toHaveText("₦4,500.00");
  await expect(checkout).toContainText(`Cover for ${customer}`);
  // Both widths: accessible, nothing sideways, screenshots.
  await checkPage(page, "checkout", page.getByRole("button", { name: "Pay now" }));

  // The declined card first.
  await payWithCard(page, "4000 0000 0000 0002");
  await expect(page.getByRole("heading", { name: "Payment declined" })).toBeVisible();
  await expect(checkout).toContainText("Your card was declined and you were not charged.");
  await checkPage(page, "checkout-declined", page.getByRole("button", { name: "Try again with another card" }));
  await page.getByRole("button", { name: "Try again with another card" }).click();
  await expect(page).toHaveURL((url) => url.pathname.startsWith("/pay/") && !url.pathname.endsWith(firstReference));
  const secondReference = referenceOf(page.url());
  await expect(page.getByRole("button", { name: "Pay now" })).toBeVisible();
  await expect(page.getByTestId("checkout-amount")).toHaveText("₦4,500.00");

  // Then the card that pays.
  await payWithCard(page, "4242 4242 4242 4242");
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
  await expect(checkout).toContainText(`You are covered. ${business} will send you the details.`);
  await checkPage(page, "checkout-paid", page.getByRole("heading", { name: "Payment successful" }));
  // Reloading the link shows it paid, with no form.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Pay now" })).toHaveCount(0);

  // ---- The dashboard: payments ----
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main" });
  await nav.getByRole("link", { name: "Payments" }).click();
  await expect(page.getByRole("heading", { name: "Payments", level: 1 })).toBeVisible();
  const payments = page.getByRole("table", { name: "Payments" });
  const paidRow = payments.getByRole("row").filter({ hasText: secondReference });
  const failedRow = payments.getByRole("row").filter({ hasText: firstReference });
  await expect(paidRow).toContainText(customer);
  await expect(paidRow).toContainText("₦4,500.00");
  await expect(paidRow).toContainText("success");
  await expect(failedRow).toContainText(customer);
  await expect(failedRow).toContainText("failed");
  await expect(payments.locator("tbody tr")).toHaveCount(2);
  await page.getByRole("combobox", { name: "Status" }).selectOption("success");
  await expect(payments.locator("tbody tr")).toHaveCount(1);
  await expect(payments.locator("tbody tr")).toContainText(secondReference);

  // ---- Customers ----
  await nav.getByRole("link", { name: "Customers" }).click();
  await expect(page.getByRole("heading", { name: "Customers", level: 1 })).toBeVisible();
  const holders = page.getByRole("table", { name: "Customers" }).locator("tbody tr");
  await expect(holders).toHaveCount(1);
  await expect(holders).toContainText(customer);
  await expect(holders).toContainText("1 active");
  await expect(holders).toContainText("₦4,500.00");

  // ---- The policy's performance ----
  await page.goto(`/policies/${policy.id}`);
  const panel = page.locator('[aria-label="Policy analytics"]');
  await expect(panel.getByRole("heading", { name: "Performance" })).toBeVisible();
  await expect(stat(panel, "Purchases")).toHaveText("1");
  await expect(stat(panel, "Renewals")).toHaveText("0");
  await expect(stat(panel, "Active coverages")).toHaveText("1");
  await expect(stat(panel, "Net revenue")).toHaveText("₦4,432.50"); // 4,500.00 − 1.5 % fee (67.50)
  await expect(stat(panel, "Conversion")).toHaveText("50.0%"); // 1 paid of 2 payments

  // ---- A claim over REST, reviewed in the dashboard ----
  const key = await createKey(browserAccount(page), ["read", "write"]);
  const api = await restClient(key.key);
  const filed = await api.post("claims", {
    data: { policyId: policy.id, type: "theft", description: "Phone stolen on the bus to Yaba", amount: 4000, email: customer },
  });
  expect(filed.status(), await filed.text()).toBe(201);
  const claim = await filed.json();
  expect(claim).toMatchObject({ status: "submitted", amount: "4000.00", coverageId: expect.any(String) });

  await nav.getByRole("link", { name: "Claims" }).click();
  await expect(page.getByRole("heading", { name: "Claims", level: 1 })).toBeVisible();
  const claimRow = page.getByRole("table", { name: "Claims" }).locator("tbody tr");
  await expect(claimRow).toHaveCount(1);
  await expect(claimRow).toContainText("Phone stolen on the bus to Yaba");
  await expect(claimRow).toContainText("₦4,000.00");
  await expect(claimRow).toContainText("submitted");
  await claimRow.getByRole("link").click();

  await expect(page).toHaveURL(new RegExp(`/claims/${claim.id}$`));
  await expect(page.getByRole("heading", { name: "Theft claim · ₦4,000.00", level: 1 })).toBeVisible();
  const main = page.getByRole("main");
  await expect(main).toContainText("On Phone Protect");
  await expect(main.getByTestId("claim-customer")).toHaveText(customer);
  await expect(main.getByTestId("claim-coverage")).toContainText("active");
  await expect(main).toContainText("Phone stolen on the bus to Yaba");
  const history = page.getByRole("list", { name: "Claim history" }).getByRole("listitem");
  await expect(history).toHaveCount(1);
  await expect(history.nth(0)).toContainText("submitted");
  await expect(history.nth(0)).toContainText("API");
  // Only the next move is offered.
  await expect(main.getByRole("button", { name: "Approve" })).toHaveCount(0);

  await main.getByRole("button", { name: "Start review" }).click();
  await expect(main.getByRole("button", { name: "Approve" })).toBeVisible();
  await expect(main.getByRole("button", { name: "Reject" })).toBeVisible();
  await expect(main.getByRole("button", { name: "Start review" })).toHaveCount(0);
  await expect(history).toHaveCount(2);

  await main.getByRole("button", { name: "Approve" }).click();
  await page.getByRole("dialog", { name: "Approve this claim?" }).getByRole("button", { name: "Approve claim" }).click();
  await expect(main.getByRole("button", { name: "Pay claim" })).toBeVisible();
  await expect(main.getByRole("button", { name: "Mark paid outside Coverdesk" })).toBeVisible();
  await expect(main.getByTestId("claim-approved-amount")).toHaveText("₦4,000.00");
  await expect(main.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect(history).toHaveCount(3);
  await expect(history.nth(0)).toContainText("submitted");
  await expect(history.nth(1)).toContainText("under review");
  await expect(history.nth(1)).toContainText("Amaka Eze");
  await expect(history.nth(2)).toContainText("approved");
  await expect(history.nth(2)).toContainText("Amaka Eze");
  await expect(main.getByText("Status", { exact: true }).locator("..")).toContainText("approved");


  // The API agrees, and the list shows it approved.
  expect(await (await api.get(`claims/${claim.id}`)).json()).toMatchObject({
    id: claim.id,
    status: "approved",
    approvedAmount: "4000.00",
  });
  await main.getByRole("link", { name: "Claims" }).click();
  await expect(claimRow).toContainText("approved");

  // The claim page at both widths.
  await page.goto(`/claims/${claim.id}`);
  await checkPage(page, "claim-approved", page.getByRole("heading", { name: "Theft claim · ₦4,000.00", level: 1 }));
  await api.dispose();
});

test("an unknown payment link shows 'Payment not found' without a form", async ({ page }) => {
  await page.goto("/pay/cdp_this_reference_does_not_exist");
  await expect(page.getByRole("heading", { name: "Payment not found" })).toBeVisible();
  await checkPage(page, "checkout-not-found", page.getByRole("heading", { name: "Payment not found" }));
  await expect(page.getByRole("button", { name: "Pay now" })).toHaveCount(0);
});
