// Claims a business works with: staff file one for a customer from the
// dashboard (the same service as POST /claims), the claim's page links its
// policy, its customer and their coverage, an approval records the amount the
// business will pay (at most the amount claimed), and the list has policy and
// customer columns, search and filters. The customer's page gathers their
// coverages, payments and claims.
import { expect, test, type Page } from "@playwright/test";
import { buyPolicy, createPolicyFor, initializeFor, ok, payReference, tenantWithClients } from "../api/_helpers";
import { trpc, unique } from "../support/api";
import { checkPage, clippedElements, FIRST_LOAD, signedInPage } from "../support/screens";

const naira = (amount: string) =>
  new Intl.NumberFormat("en-NG", { style: "currency", currency: "NGN", minimumFractionDigits: 2 }).format(Number(amount));
const rows = (page: Page) => page.getByRole("table", { name: "Claims" }).getByTestId("claim-row");

test("file a claim for a customer, review and approve part of it, find it by customer, status, type and policy", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const t = await tenantWithClients();
  const phone = await createPolicyFor(t.write, { name: `Phone Cover ${unique()}`, price: "5000.00" });
  const home = await createPolicyFor(t.write, { name: `Home Shield ${unique()}`, price: "800.00" });
  const chidi = `chidi-${unique()}@example.test`;
  const dayo = `dayo-${unique()}@example.test`;
  const bought = await initializeFor(t.write, phone, chidi);
  expect((await payReference(bought.reference, undefined, { name: "Chidi Okafor" })).status).toBe(200);
  await buyPolicy(t.write, home, dayo);
  // Dayo's claim arrives over REST, on the home policy.
  const restClaim = await ok(
    await t.write.post("claims", {
      data: { policyId: home.id, type: "fire", description: "Kitchen fire", amount: 300, email: dayo },
    }),
    201,
  );

  const page = await signedInPage(browser, t.account);
  await page.goto("/claims");
  await expect(rows(page)).toHaveCount(1, { timeout: FIRST_LOAD });
  await expect(rows(page).first()).toContainText(home.name);
  await expect(rows(page).first()).toContainText(dayo);

  // ---- Filing: the form says what is missing, then files the claim ----
  await page.getByRole("button", { name: "File a claim" }).click();
  const dialog = page.getByRole("dialog", { name: "File a claim" });
  await dialog.getByLabel("Customer email").fill("");
  await dialog.getByRole("button", { name: "File claim" }).click();
  await expect(dialog.getByText("Choose the policy the claim is on")).toBeVisible();
  await expect(dialog.getByText("Enter the customer's email")).toBeVisible();
  await expect(dialog.getByText("Enter an amount greater than 0, like 150 or 150.50")).toBeVisible();
  await expect(dialog.getByText("Enter what happened")).toBeVisible();
  await checkPage(page, "claims-file-dialog", dialog);
  await dialog.getByLabel("Policy").selectOption({ label: phone.name });
  await dialog.getByLabel("Customer email").fill(chidi);
  await dialog.getByLabel("Type").selectOption("theft");
  await dialog.getByLabel("Amount claimed").fill("3000");
  await dialog.getByLabel("What happened").fill("Phone snatched at the bus stop in Yaba");
  await dialog.getByRole("button", { name: "File claim" }).click();

  // ---- The claim's page: policy, customer, coverage ----
  await expect(page).toHaveURL(/\/claims\/[a-z0-9]+$/, { timeout: FIRST_LOAD });
  const claimId = page.url().split("/claims/")[1]!;
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Theft claim · ${naira("3000.00")}`);
  await expect(page.getByRole("main").getByRole("link", { name: phone.name })).toHaveAttribute("href", `/policies/${phone.id}`);
  await expect(page.getByTestId("claim-customer").getByRole("link", { name: "Chidi Okafor" })).toBeVisible();
  await expect(page.getByTestId("claim-coverage")).toContainText("active");
  // Filed by staff through the same service: linked to the coverage, with its event.
  const viaApi = await ok(await t.read.get(`claims/${claimId}`));
  expect(viaApi).toMatchObject({ status: "submitted", amount: "3000.00", approvedAmount: null, coverageId: expect.any(String) });

  // ---- Review, then approve part of it ----
  const main = page.getByRole("main");
  await main.getByRole("button", { name: "Start review" }).click();
  await main.getByRole("button", { name: "Approve" }).click();
  const approve = page.getByRole("dialog", { name: "Approve this claim?" });
  await expect(approve.getByLabel("Approved amount (NGN)")).toHaveValue("3000.00");
  await approve.getByLabel("Approved amount (NGN)").fill("5000");
  await approve.getByRole("button", { name: "Approve claim" }).click();
  await expect(approve.getByText("Approve at most the amount claimed, 3000.00")).toBeVisible();
  expect((await ok(await t.read.get(`claims/${claimId}`))).status).toBe("under_review");
  await checkPage(page, "claim-approve-dialog", approve);
  await approve.getByLabel("Approved amount (NGN)").fill("2500");
  await approve.getByLabel("Note (optional)").fill("Excess of 500 applies");
  await approve.getByRole("button", { name: "Approve claim" }).click();
  await expect(page.getByTestId("claim-approved-amount")).toHaveText(naira("2500.00"));
  await expect(page.getByRole("list", { name: "Claim history" })).toContainText("Excess of 500 applies");
  expect(await ok(await t.read.get(`claims/${claimId}`))).toMatchObject({ status: "approved", approvedAmount: "2500.00" });
  await checkPage(page, "claim-detail", page.getByTestId("claim-approved-amount"));

  // ---- The list: columns, search, filters ----
  await page.getByRole("main").getByRole("link", { name: "Claims" }).click();
  await expect(rows(page)).toHaveCount(2);
  const filed = rows(page).filter({ hasText: chidi });
  await expect(filed).toContainText(phone.name);
  await expect(filed).toContainText("approved");
  await expect(filed).toContainText(naira("3000.00"));
  await page.getByLabel("Search", { exact: true }).fill(dayo.slice(0, 10).toUpperCase());
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText("Kitchen fire");
  await page.getByLabel("Search", { exact: true }).fill("bus stop");
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText(chidi);
  await page.getByRole("button", { name: "Clear the search" }).click();
  await page.getByLabel("Status", { exact: true }).selectOption("submitted");
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText("Kitchen fire");
  await page.getByLabel("Status", { exact: true }).selectOption("");
  await page.getByLabel("Type", { exact: true }).selectOption("theft");
  await expect(rows(page)).toHaveCount(1);
  await page.getByLabel("Type", { exact: true }).selectOption("");
  await page.getByLabel("Policy", { exact: true }).selectOption({ label: home.name });
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText(dayo);
  await page.getByLabel("Policy", { exact: true }).selectOption("");
  await page.getByLabel("Type", { exact: true }).selectOption("flood");
  await expect(page.getByText("No claims match these filters")).toBeVisible();
  await page.getByLabel("Type", { exact: true }).selectOption("");
  await checkPage(page, "claims-list", rows(page).first().or(page.getByRole("list", { name: "Claims" })).first());

  // At 390 px each claim is a card: the status reads in full, the date is there, nothing is cut off.
  await page.setViewportSize({ width: 390, height: 844 });
  const cards = page.getByRole("list", { name: "Claims" }).getByTestId("claim-row");
  await expect(cards).toHaveCount(2);
  await expect(cards.filter({ hasText: dayo }).getByText("submitted", { exact: true })).toBeVisible();
  for (const label of ["Policy", "Customer", "Amount", "Status", "Filed"]) {
    await expect(cards.first().getByText(label, { exact: true })).toBeVisible();
  }
  expect(await clippedElements(page.getByRole("list", { name: "Claims" }))).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });

  // ---- The customer's page ----
  await page.goto("/customers");
  const customers = page.getByRole("table", { name: "Customers" }).getByTestId("customer-row");
  await expect(customers).toHaveCount(2, { timeout: FIRST_LOAD });
  await page.getByLabel("Search", { exact: true }).fill("okafor");
  await expect(customers).toHaveCount(1);
  await expect(customers.first()).toContainText("Chidi Okafor");
  await expect(customers.first()).toContainText(naira("5000.00"));
  await checkPage(page, "customers-list", page.getByRole("search"));
  await customers.first().getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Chidi Okafor", { timeout: FIRST_LOAD });
  await expect(page.getByTestId("customer-total-paid")).toHaveText(naira("5000.00"));
  await expect(page.getByTestId("customer-active")).toHaveText("1 of 1");
  const region = (name: string) => page.getByRole("region", { name, exact: true });
  await expect(region("Coverages").getByRole("table").getByTestId("customer-coverage")).toHaveCount(1);
  await expect(region("Coverages").getByRole("table")).toContainText(phone.name);
  await expect(region("Payments").getByRole("table").getByTestId("customer-payment")).toHaveCount(1);
  await expect(region("Claims").getByRole("table").getByTestId("customer-claim")).toHaveCount(1);
  await expect(region("Claims").getByRole("table")).toContainText("approved");
  await checkPage(page, "customer-detail", region("Claims"));

  // Another organization's customer is not found here.
  const other = await tenantWithClients();
  const otherPolicy = await createPolicyFor(other.write);
  await buyPolicy(other.write, otherPolicy, `z-${unique()}@example.test`);
  const theirs = await trpc<{ data: { id: string }[] }>(other.account, "customers.list", { limit: 1 }, "query");
  await page.goto(`/customers/${theirs.data[0]!.id}`);
  await expect(page.getByText("Customer not found")).toBeVisible({ timeout: FIRST_LOAD });
  await expect(page.getByRole("main").getByRole("link", { name: "Customers" })).toBeVisible();
  await page.goto(`/claims/${restClaim.id}x`);
  await expect(page.getByText("Claim not found")).toBeVisible({ timeout: FIRST_LOAD });
  await expect(page.getByRole("main").getByRole("link", { name: "Claims" })).toHaveAttribute("href", "/claims");
  await page.context().close();
});
