// Money back in the browser (issue 25): an owner pays an approved claim to the
// claimant's account — the bank found in a searchable list, the account name
// resolved before paying, field errors first, a confirmation naming who is
// paid, the payout's status updating by itself until the claim is paid — and
// refunds part of a payment from its page. Each dialog and page is checked at
// 1280 and 390 px (axe, no sideways scroll) by checkPage.
import { expect, test } from "@playwright/test";
import { pdfPart, pngPart } from "../api/_files";
import { buyPolicy, createPolicyFor, ok, tenantWithClients } from "../api/_helpers";
import { signInPlatformAdmin, trpc, unique } from "../support/api";
import { checkPage, FIRST_LOAD, signedInPage } from "../support/screens";
import { signInToPortal } from "./_portal";

const naira = (amount: string) =>
  new Intl.NumberFormat("en-NG", { style: "currency", currency: "NGN", minimumFractionDigits: 2 }).format(Number(amount));
const SETTLE = 30_000;

test("an owner pays an approved claim to the claimant's bank account and sees it paid", async ({ browser }) => {
  test.setTimeout(120_000);
  const t = await tenantWithClients();
  const policy = await createPolicyFor(t.write, { price: "100.00" });
  await buyPolicy(t.write, policy, `holder-${unique()}@example.test`);
  const multipart = { certificateOfIncorporation: await pdfPart(`inc-${unique()}.pdf`), taxCertificate: pngPart("tin.png") };
  await ok(await t.write.post("business/compliance/kyb/submit", { multipart }), 201);
  await trpc(await signInPlatformAdmin(), "admin.approveKyb", { organizationId: t.organizationId });
  const claim = await ok(
    await t.write.post("claims", { data: { policyId: policy.id, type: "theft", description: "Phone stolen", amount: 60 } }),
    201,
  );
  await ok(await t.write.patch(`claims/${claim.id}/status`, { data: { status: "under_review" } }));
  await ok(await t.write.patch(`claims/${claim.id}/status`, { data: { status: "approved", approvedAmount: 40 } }));

  const page = await signedInPage(browser, t.account);
  await page.goto(`/claims/${claim.id}`);
  await page.getByRole("button", { name: "Pay claim" }).click({ timeout: FIRST_LOAD });
  const dialog = page.getByRole("dialog", { name: "Pay this claim" });
  await expect(dialog.getByLabel("Bank", { exact: true })).toBeEnabled();

  // Nothing chosen: every field says what is missing, at once.
  await dialog.getByLabel(`Amount (NGN)`).fill("");
  await dialog.getByRole("button", { name: "Review payout" }).click();
  await expect(dialog.getByText("Choose the bank")).toBeVisible();
  await expect(dialog.getByText("Enter the 10-digit account number (NUBAN)")).toBeVisible();
  await expect(dialog.getByLabel("Account number")).toHaveAttribute("aria-invalid", "true");

  // The bank from the searchable list; an account the bank does not know is refused before paying.
  await dialog.getByLabel("Find the bank").fill("guaranty");
  await expect(dialog.getByLabel("Bank", { exact: true }).locator("option")).toHaveCount(2); // the prompt and GTBank
  await dialog.getByLabel("Bank", { exact: true }).selectOption({ label: "Guaranty Trust Bank" });
  await dialog.getByLabel("Account number").fill("3000010000");
  await expect(dialog.getByText("No account with this number at this bank: check both")).toBeVisible();
  await checkPage(page, "claim-pay-dialog-errors", dialog.getByText("No account with this number at this bank: check both"));
  await dialog.getByLabel("Account number").fill("3012345671");
  await expect(dialog.getByTestId("payout-account-name")).toContainText(/Account name: [A-Z]+ [A-Z]+/);
  const accountName = (await dialog.getByTestId("payout-account-name").locator("strong").textContent())!;
  await dialog.getByLabel(`Amount (NGN)`).fill("50");
  await dialog.getByRole("button", { name: "Review payout" }).click();
  await expect(dialog.getByText(`Pay at most the approved amount, ${naira("40")}`)).toBeVisible();
  await dialog.getByLabel(`Amount (NGN)`).fill("40");
  await dialog.getByRole("button", { name: "Review payout" }).click();

  // The confirmation says who gets what; the payout is made only now.
  const confirm = page.getByRole("alertdialog", { name: "Send this payout?" });
  await expect(confirm).toContainText(`${naira("40")} to ${accountName}, Guaranty Trust Bank ••••5671`);
  await checkPage(page, "claim-pay-confirm", confirm);
  expect((await ok(await t.read.get(`claims/${claim.id}/payouts`))).data).toEqual([]);
  await confirm.getByRole("button", { name: "Send payout" }).click();
  await expect(page.getByText(`Payout of ${naira("40")} to ${accountName} sent`)).toBeVisible();

  // The payout's status updates by itself; the claim becomes paid.
  const payout = page.getByTestId("claim-payout");
  await expect(payout).toContainText(`${naira("40")} to ${accountName}`);
  await expect(payout.getByTestId("claim-payout-status")).toHaveText("paid", { timeout: SETTLE });
  await expect(page.getByRole("button", { name: "Pay claim" })).toHaveCount(0);
  await expect(page.getByRole("list", { name: "Claim history" })).toContainText(`Paid to ${accountName}`, { timeout: SETTLE });
  await checkPage(page, "claim-paid", payout);
});

test("an owner refunds part of a payment from its page and sees it processed", async ({ browser }) => {
  test.setTimeout(90_000);
  const t = await tenantWithClients();
  const policy = await createPolicyFor(t.write, { price: "100.00" });
  const paid = await buyPolicy(t.write, policy, `refund-${unique()}@example.test`);
  await buyPolicy(t.write, policy, `other-${unique()}@example.test`);

  const page = await signedInPage(browser, t.account);
  await page.goto(`/payments/${paid.reference}`);
  const section = page.getByRole("region", { name: "Refunds" });
  await expect(section.getByText("No refunds.")).toBeVisible({ timeout: FIRST_LOAD });
  await section.getByRole("button", { name: "Refund" }).click();
  const dialog = page.getByRole("dialog", { name: "Refund this payment" });
  await expect(dialog.getByLabel("Amount (NGN)")).toHaveValue("100.00");
  await dialog.getByLabel("Amount (NGN)").fill("100.50");
  await dialog.getByRole("button", { name: "Review refund" }).click();
  await expect(dialog.getByText(`Refund at most what is left of the payment, ${naira("100")}`)).toBeVisible();
  await checkPage(page, "payment-refund-dialog", dialog.getByText(`Refund at most what is left of the payment, ${naira("100")}`));
  await dialog.getByLabel("Amount (NGN)").fill("30");
  await dialog.getByLabel("Reason (optional)").fill("Charged twice");
  await dialog.getByRole("button", { name: "Review refund" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Send this refund?" });
  await expect(confirm).toContainText(`${naira("30")} goes back to ${paid.email}`);
  await confirm.getByRole("button", { name: "Send refund" }).click();

  const row = section.getByTestId("refund-row");
  await expect(row).toContainText("Charged twice");
  await expect(row.getByTestId("refund-status")).toHaveText("processed", { timeout: SETTLE });
  await expect(section.getByTestId("payment-refunded")).toHaveText(`Refunded ${naira("30")} of ${naira("100")}`);
  await checkPage(page, "payment-refunded", row);
});

test("a policyholder says where to be paid in the portal; the owner pays that account with one confirmed click", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const t = await tenantWithClients();
  const policy = await createPolicyFor(t.write, { price: "100.00" });
  const holder = `claimant-${unique()}@example.test`;
  await buyPolicy(t.write, policy, holder);
  const multipart = { certificateOfIncorporation: await pdfPart(`inc-${unique()}.pdf`), taxCertificate: pngPart("tin.png") };
  await ok(await t.write.post("business/compliance/kyb/submit", { multipart }), 201);
  await trpc(await signInPlatformAdmin(), "admin.approveKyb", { organizationId: t.organizationId });
  const claim = await ok(
    await t.write.post("claims", {
      data: { policyId: policy.id, type: "theft", description: "Bicycle stolen", amount: 60, email: holder },
    }),
    201,
  );
  await ok(await t.write.patch(`claims/${claim.id}/status`, { data: { status: "under_review" } }));
  await ok(await t.write.patch(`claims/${claim.id}/status`, { data: { status: "approved", approvedAmount: 40 } }));

  // The policyholder, on their claim in the portal: field errors at once, then the bank from the list.
  const portal = await (await browser.newContext()).newPage();
  await portal.goto(`/portal/${t.organizationId}/claims/${claim.id}`);
  await signInToPortal(portal, holder);
  const section = portal.getByTestId("portal-claim-payout-account");
  await section.getByRole("button", { name: "Save account" }).click({ timeout: FIRST_LOAD });
  await expect(section.getByText("Choose the bank")).toBeVisible();
  await expect(section.getByText("Enter the 10-digit account number (NUBAN)")).toBeVisible();
  await checkPage(portal, "portal-payout-account-errors", section.getByText("Choose the bank"));
  await section.getByLabel("Find your bank").fill("access");
  await section.getByLabel("Bank", { exact: true }).selectOption({ label: "Access Bank" });
  await section.getByLabel("Account number").fill("3012345671");
  await section.getByRole("button", { name: "Save account" }).click();
  const saved = section.getByTestId("portal-payout-account");
  await expect(saved).toContainText(/We will pay you at [A-Z]+ [A-Z]+, Access Bank ••••5671/);
  const accountName = (await saved.locator("strong").textContent())!;
  await checkPage(portal, "portal-payout-account", saved);

  // The owner sees it on the claim and pays it: one click, one confirmation naming who gets what.
  const page = await signedInPage(browser, t.account);
  await page.goto(`/claims/${claim.id}`);
  const card = page.getByTestId("claimant-account");
  await expect(card).toContainText(accountName, { timeout: FIRST_LOAD });
  await card.getByRole("button", { name: `Pay ${naira("40")} to this account` }).click();
  const confirm = page.getByRole("alertdialog", { name: "Send this payout?" });
  await expect(confirm).toContainText(`${naira("40")} to ${accountName}, Access Bank ••••5671`);
  await confirm.getByRole("button", { name: "Send payout" }).click();
  await expect(page.getByText(`Payout of ${naira("40")} to ${accountName} sent`)).toBeVisible();
  await expect(page.getByTestId("claim-payout").getByTestId("claim-payout-status")).toHaveText("paid", { timeout: SETTLE });
  await checkPage(page, "claim-paid-to-claimant-account", page.getByTestId("claim-payout"));

  // The policyholder sees the money paid.
  await portal.reload();
  await expect(portal.getByTestId("portal-claim-payout")).toContainText(`${naira("40")} was paid to Access Bank ••••5671`, {
    timeout: FIRST_LOAD,
  });
});
