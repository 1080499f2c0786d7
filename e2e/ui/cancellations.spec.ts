// Cancelling a coverage in the browser (issue 25): the business sets its
// cooling-off days in Settings, cancels a customer's cover from the customer
// page after seeing the quote (field errors first, a confirmation naming who
// gets what back); a policyholder cancels their own cover on the portal after
// seeing what comes back. Dialogs and pages checked at 1280 and 390 px.
import { expect, test } from "@playwright/test";
import { buyPolicy, createPolicyFor, ok, tenantWithClients } from "../api/_helpers";
import { trpc, unique } from "../support/api";
import { checkPage, FIRST_LOAD, signedInPage } from "../support/screens";
import { signInToPortal } from "./_portal";

const naira = (amount: string) =>
  new Intl.NumberFormat("en-NG", { style: "currency", currency: "NGN", minimumFractionDigits: 2 }).format(Number(amount));

test("the business sets cooling-off days, then cancels a customer's cover with the premium refunded", async ({ browser }) => {
  test.setTimeout(120_000);
  const t = await tenantWithClients();
  const policy = await createPolicyFor(t.write, { name: "Shop cover", price: "200.00", duration: "monthly" });
  await buyPolicy(t.write, policy, `other-${unique()}@example.test`); // the balance the refund comes from
  const email = `holder-${unique()}@example.test`;
  const paid = await buyPolicy(t.write, policy, email);
  const page = await signedInPage(browser, t.account);

  // Settings: out of range is a field error; 10 is saved.
  await page.goto("/settings");
  const days = page.getByLabel("Cooling-off days");
  await expect(days).toHaveValue("14", { timeout: FIRST_LOAD });
  await days.fill("31");
  await page.getByRole("button", { name: "Save cooling-off days" }).click();
  await expect(page.getByText("Enter a whole number from 0 to 30")).toBeVisible();
  await days.fill("10");
  await page.getByRole("button", { name: "Save cooling-off days" }).click();
  await expect(page.getByText("Cooling-off days saved")).toBeVisible();
  expect((await ok(await t.read.get("business/settings"))).coverage).toEqual({ coolingOffDays: 10 });

  // The customer page: the quote first, then a reason, then the confirmation.
  const customers = await trpc<{ data: { id: string; email: string }[] }>(t.account, "customers.list", { limit: 10 }, "query");
  await page.goto(`/customers/${customers.data.find((c) => c.email === email)!.id}`);
  const row = page.getByRole("region", { name: "Coverages", exact: true }).getByRole("table").getByTestId("customer-coverage");
  await row.getByRole("button", { name: "Cancel cover: Shop cover" }).click({ timeout: FIRST_LOAD });
  const dialog = page.getByRole("dialog", { name: "Cancel cover: Shop cover" });
  await expect(dialog.getByTestId("quote-amount")).toHaveText(naira("200"));
  await expect(
    dialog.getByText("Cancelled within 10 days of the period's start: the whole premium of the period is refunded."),
  ).toBeVisible();
  await dialog.getByRole("button", { name: "Review cancellation" }).click();
  await expect(dialog.getByText("Say why the coverage is cancelled")).toBeVisible();
  await expect(dialog.getByLabel("Reason")).toHaveAttribute("aria-invalid", "true");
  await checkPage(page, "coverage-cancel-dialog", dialog.getByText("Say why the coverage is cancelled"));
  await dialog.getByLabel("Reason").fill("The shop closed");
  await dialog.getByRole("button", { name: "Review cancellation" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Cancel this cover now?" });
  await expect(confirm).toContainText(`${naira("200")} goes back to them`);
  await confirm.getByRole("button", { name: "Cancel cover" }).click();
  await expect(page.getByText(`Cover cancelled; ${naira("200")} is on its way back`)).toBeVisible();
  await expect(row.getByTestId("coverage-status")).toContainText("cancelled");
  await expect(row.getByTestId("coverage-status")).toContainText("The shop closed");
  await expect(row.getByRole("button", { name: /^Cancel / })).toHaveCount(0);

  const coverage = await ok(await t.read.get(`business/coverages/${paid.coverage.id}`));
  expect(coverage).toMatchObject({ status: "cancelled", cancellationReason: "The shop closed" });
  const refunds = await ok(await t.read.get(`business/refunds?paymentReference=${paid.reference}`));
  expect(refunds.data.map((r: { amount: string }) => r.amount)).toEqual(["200.00"]);
});

test("a policyholder sees what cancelling refunds, then cancels their cover on the portal", async ({ page }) => {
  test.setTimeout(120_000);
  const t = await tenantWithClients();
  const policy = await createPolicyFor(t.write, { name: "Stall cover", price: "1500.00", duration: "monthly" });
  await buyPolicy(t.write, policy, `other-${unique()}@example.test`);
  const email = `holder-${unique()}@example.test`;
  const paid = await buyPolicy(t.write, policy, email);

  await page.goto(`/portal/${t.organizationId}/coverages/${paid.coverage.id}`);
  await signInToPortal(page, email);
  const section = page.getByTestId("portal-cancel");
  await section.getByRole("button", { name: "See what cancelling refunds" }).click({ timeout: FIRST_LOAD });
  await expect(section.getByTestId("portal-cancellation-quote")).toContainText(`You would get back ${naira("1500")}`);
  await section.getByRole("button", { name: "Cancel my cover" }).click();
  await expect(section.getByText("Say why the coverage is cancelled")).toBeVisible();
  await checkPage(page, "portal-cancel", section.getByText("Say why the coverage is cancelled"));
  await section.getByLabel("Why are you cancelling?").fill("Found cheaper cover");
  await section.getByRole("button", { name: "Cancel my cover" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Cancel your cover now?" });
  await expect(confirm).toContainText(`${naira("1500")} goes back to the card you paid with`);
  await confirm.getByRole("button", { name: "Cancel my cover" }).click();
  await expect(page.getByTestId("portal-cancelled")).toContainText("This cover was cancelled on", { timeout: FIRST_LOAD });
  await expect(page.getByTestId("portal-coverage-status")).toContainText("Cancelled on");
  await expect(page.getByTestId("portal-renew")).toHaveCount(0);
  await checkPage(page, "portal-cancelled", page.getByTestId("portal-cancelled"));

  expect(await ok(await t.read.get(`business/coverages/${paid.coverage.id}`))).toMatchObject({
    status: "cancelled",
    cancellationReason: "Found cheaper cover",
  });
  const refunds = await ok(await t.read.get(`business/refunds?paymentReference=${paid.reference}`));
  expect(refunds.data.map((r: { amount: string }) => r.amount)).toEqual(["1500.00"]);
});
