// Recurring premiums in the browser (issue 27): the checkout's "Renew
// automatically" box (on by default for a monthly policy, with the agreement
// text), the policyholder turning it off in the portal — after which the test
// clock's end passes with no charge — and the business's Renewals page with a
// declined renewal past due, in test mode. Pages checked at 1280 and 390 px
// (axe, no sideways scroll) by checkPage.
import { expect, test, type Page } from "@playwright/test";
import { createPolicyFor, ok, tenantWithClients } from "../api/_helpers";
import { unique } from "../support/api";
import { checkPage, FIRST_LOAD, signedInPage } from "../support/screens";
import { waitForMailbox } from "../api/_mail";
import { signInToPortal } from "./_portal";

/* eslint-disable @typescript-eslint/no-explicit-any */

async function payOnCheckout(page: Page, reference: string, card: string, keepAutoRenew: boolean) {
  await page.goto(`/pay/${reference}`);
  const box = page.getByRole("checkbox", { name: "Renew automatically" });
  await expect(box).toBeChecked({ timeout: FIRST_LOAD });
  await expect(page.getByText(/charges this card ₦5,000\.00 every month when my cover ends/)).toBeVisible();
  if (!keepAutoRenew) await box.uncheck();
  await page.getByLabel("Card number").fill(card);
  await page.getByLabel("Expiry").pressSequentially("1230");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Pay now" }).click();
  await expect(page.getByText("Payment successful")).toBeVisible();
}

test("a policyholder agrees at the checkout, then turns automatic renewal off in the portal: no charge at the end", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const t = await tenantWithClients(`Renew Co ${unique()}`, "test");
  const policy = await createPolicyFor(t.write, { name: `Phone cover ${unique()}`, duration: "monthly", price: "5000.00" });
  const email = `holder-${unique()}@example.test`;
  const payment = await ok(
    await t.write.post("payments/initialize", { data: { amount: 5000, policyId: policy.id, email } }),
    201,
  );

  const page = await (await browser.newContext()).newPage();
  await page.goto(`/pay/${payment.reference}`);
  await expect(page.getByRole("checkbox", { name: "Renew automatically" })).toBeChecked({ timeout: FIRST_LOAD });
  await checkPage(page, "checkout-auto-renew", page.getByRole("checkbox", { name: "Renew automatically" }));
  await payOnCheckout(page, payment.reference, "4242 4242 4242 4242", true);

  // The portal (the receipt links to the cover there): on, with the saved card; turned off.
  const receipt = (await waitForMailbox(email, (m) => m.some((x) => /receipt/i.test(x.subject)), "the receipt")).find((x) =>
    /receipt/i.test(x.subject),
  )!;
  const link = new RegExp(`/portal/[\\w-]+/coverages/[\\w-]+`).exec(receipt.text)![0];
  await page.goto(link);
  await signInToPortal(page, email);
  const panel = page.getByTestId("portal-auto-renew");
  await expect(panel.getByTestId("portal-auto-renew-state")).toContainText("On: ₦5,000.00 is charged to your saved card");
  await expect(panel.getByTestId("portal-saved-card")).toContainText("Visa •••• 4242");
  await checkPage(page, "portal-auto-renew", panel);
  const toggle = panel.getByRole("switch", { name: "Renew automatically" });
  await expect(toggle).toHaveAttribute("aria-checked", "true");
  await toggle.click();
  await expect(panel.getByTestId("portal-auto-renew-state")).toContainText("Off: your cover ends on its end date");
  await expect(toggle).toHaveAttribute("aria-checked", "false");

  // The end comes (the test clock): no charge, and the cover expires.
  const coverages = await ok(await t.write.get(`business/coverages?policyId=${policy.id}`));
  const coverage = coverages.data[0];
  expect(coverage.autoRenew).toBe(false);
  await ok(await t.write.post(`business/coverages/${coverage.id}/simulate-end`));
  await expect
    .poll(async () => (await ok(await t.write.get(`business/coverages?policyId=${policy.id}`))).data[0].status, {
      timeout: 20_000,
    })
    .toBe("expired");
  const payments = await ok(await t.write.get(`payments?policyId=${policy.id}`));
  expect(payments.data.filter((p: any) => p.renewal)).toEqual([]);
  await page.reload();
  await expect(page.getByTestId("portal-coverage-status")).toContainText("Expired");
});

test("the business sees a declined renewal past due on the Renewals page, and its figures", async ({ browser }) => {
  test.setTimeout(120_000);
  const t = await tenantWithClients(`Renewals Co ${unique()}`, "test");
  const policy = await createPolicyFor(t.write, { name: `Shop cover ${unique()}`, duration: "monthly", price: "5000.00" });
  const email = `holder-${unique()}@example.test`;
  const payment = await ok(
    await t.write.post("payments/initialize", { data: { amount: 5000, policyId: policy.id, email } }),
    201,
  );
  const buyer = await (await browser.newContext()).newPage();
  await payOnCheckout(buyer, payment.reference, "4000 0000 0000 0341", true);
  const [coverage] = (await ok(await t.write.get(`business/coverages?policyId=${policy.id}`))).data;
  await ok(await t.write.post(`business/coverages/${coverage.id}/simulate-end`));
  await expect
    .poll(async () => (await ok(await t.write.get(`business/coverages?policyId=${policy.id}`))).data[0].status, {
      timeout: 20_000,
    })
    .toBe("past_due");
  await expect
    .poll(async () => (await ok(await t.write.get("business/renewals?view=past_due"))).data.length, { timeout: 20_000 })
    .toBe(1);

  const page = await signedInPage(browser, t.account);
  await page.goto("/renewals");
  await page.getByRole("switch", { name: "Test mode" }).first().click();
  await expect(page.getByTestId("renewals-past-due-count")).toHaveText("1", { timeout: FIRST_LOAD });
  await expect(page.getByTestId("renewals-recurring")).toContainText("₦5,000.00");
  await expect(page.getByText("No renewals in the next 7 days")).toBeVisible();
  await checkPage(page, "renewals-empty-due", page.getByText("No renewals in the next 7 days"));
  await page.getByRole("tab", { name: "Past due" }).click();
  const row = page.getByTestId("renewal-row").filter({ hasText: email, visible: true });
  await expect(row).toContainText("1 of 4 tries");
  await expect(row).toContainText(/declined/i);
  await checkPage(page, "renewals-past-due", row);

  const [listed] = (await ok(await t.write.get("business/renewals?view=past_due"))).data;

  // Turning automatic renewal off from the row stops the retries.
  await row.getByRole("switch", { name: /Renew automatically/ }).click();
  await expect(page.getByText("Automatic renewal turned off")).toBeVisible();
  await expect
    .poll(async () => (await ok(await t.write.get(`business/coverages?policyId=${policy.id}`))).data[0].status, {
      timeout: 20_000,
    })
    .toBe("expired");

  // The declined charge's page says what it was.
  await page.goto(`/payments/${listed.paymentReference}`);
  await expect(page.getByTestId("payment-paid-with")).toContainText("automatic renewal, try 1 of 4", { timeout: FIRST_LOAD });
});
