// The platform admin's KYB review in the browser: the queue, a submission with
// both documents shown inline, a rejection that needs a reason, the business
// reading that reason and resubmitting, the approval. To anyone else /admin
// does not exist. Needs the platform admin `npm run admin:grant` creates
// before the e2e server starts (playwright.config.ts).
import { expect, test, type Browser, type Page } from "@playwright/test";
import { pdfPart, pngPart } from "../api/_files";
import { ok, tenantWithClients } from "../api/_helpers";
import { BASE_URL, signInPlatformAdmin, unique, type Account } from "../support/api";
import { checkPage, clippedElements } from "../support/screens";

async function signedInPage(browser: Browser, account: Account, width = 1280): Promise<Page> {
  const context = await browser.newContext({ baseURL: BASE_URL, viewport: { width, height: width > 500 ? 800 : 844 } });
  await context.addCookies((await account.session.storageState()).cookies);
  return context.newPage();
}

test("a platform admin rejects a KYB with a reason, the business resubmits, the admin approves", async ({ browser }) => {
  test.setTimeout(600_000);
  const name = `Review Brokers ${unique()}`;
  const t = await tenantWithClients(name);
  await ok(
    await t.write.post("business/compliance/kyb/submit", {
      multipart: { certificateOfIncorporation: await pdfPart("incorporation.pdf"), taxCertificate: pngPart("tin.png") },
    }),
    201,
  );
  const admin = await signInPlatformAdmin();
  const page = await signedInPage(browser, admin);

  // The queue: pending first, oldest first, so a new submission may be pages down.
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin\/kyb$/);
  await expect(page.getByRole("link", { name: "Coverdesk admin" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "KYB reviews", level: 1 })).toBeVisible();
  await expect(page.getByRole("tab", { name: "Pending" })).toHaveAttribute("aria-selected", "true");
  const row = page.getByRole("row").filter({ hasText: name });
  const more = page.getByRole("button", { name: "Load more" });
  await expect(page.getByRole("table", { name: "KYB submissions" })).toBeVisible({ timeout: 60_000 });
  const rows = page.getByRole("row");
  while (!(await row.isVisible()) && (await more.isVisible())) {
    const shown = await rows.count();
    await more.click();
    await expect(rows).not.toHaveCount(shown, { timeout: 60_000 });
  }
  await expect(row).toContainText("Under review");
  await checkPage(page, "admin-kyb-queue", page.getByRole("link", { name, exact: true }));
  await row.getByRole("link", { name, exact: true }).click();

  // The submission, both documents inline.
  await expect(page).toHaveURL(new RegExp(`/admin/kyb/${t.organizationId}$`));
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible({ timeout: 60_000 });
  const docs = page.getByTestId("kyb-inline-document");
  await expect(docs).toHaveCount(2);
  await expect(docs.nth(0)).toContainText("Certificate of incorporation");
  const frame = docs.nth(0).locator("iframe");
  const pdfUrl = await frame.getAttribute("src");
  expect(pdfUrl).toMatch(/\/api\/files\/[\w-]+$/);
  const pdf = await page.request.get(pdfUrl!);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  expect(pdf.headers()["x-frame-options"]).toBe("SAMEORIGIN");
  await expect(docs.nth(1)).toContainText("Tax certificate");
  const image = docs.nth(1).locator("img");
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
  await expect(page.getByText("No decisions yet")).toBeVisible();

  // A rejection needs a reason of at least 5 characters.
  await page.getByRole("button", { name: "Reject", exact: true }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Reason").fill("bad");
  await dialog.getByRole("button", { name: "Reject KYB" }).click();
  await expect(dialog.getByText("Say why in at least 5 characters")).toBeVisible();
  const reason = "The tax certificate is for another company.";
  await dialog.getByLabel("Reason").fill(reason);
  await dialog.getByRole("button", { name: "Reject KYB" }).click();
  await expect(page.getByText("KYB rejected")).toBeVisible({ timeout: 30_000 });
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("heading", { name, level: 1 }).locator("..")).toContainText("Rejected", { timeout: 30_000 });
  await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);
  const decisions = page.getByTestId("kyb-decision");
  await expect(decisions).toHaveCount(1);
  await expect(decisions.first()).toContainText("Rejected by platform-admin");
  await expect(decisions.first()).toContainText(reason);

  // The business reads the reason and resubmits through the dropzones.
  const owner = await signedInPage(browser, t.account, 390);
  await owner.goto("/kyb");
  await expect(owner.getByTestId("kyb-rejection-reason")).toHaveText(reason, { timeout: 60_000 });
  await owner.getByTestId("kyb-certificateOfIncorporation-dropzone").locator('input[type="file"]').setInputFiles({
    name: "incorporation-2.png",
    mimeType: "image/png",
    buffer: pngPart().buffer,
  });
  await owner.getByTestId("kyb-taxCertificate-dropzone").locator('input[type="file"]').setInputFiles({
    name: "tin-2.png",
    mimeType: "image/png",
    buffer: pngPart().buffer,
  });
  await owner.getByRole("button", { name: "Resubmit for review" }).click();
  await expect(owner.getByTestId("kyb-status")).toContainText("Under review", { timeout: 60_000 });
  await owner.context().close();

  // Approved after a confirmation; the history keeps both decisions, newest first.
  await page.reload();
  await page.getByRole("button", { name: "Approve" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Approve KYB" }).click();
  await expect(page.getByText("KYB approved")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("heading", { name, level: 1 }).locator("..")).toContainText("Approved", { timeout: 30_000 });
  await expect(decisions).toHaveCount(2);
  await expect(decisions.first()).toContainText("Approved by platform-admin");
  await expect(page.getByTestId("kyb-inline-document").locator("img")).toHaveCount(2);

  await page.getByRole("link", { name: "All submissions" }).click();
  await page.getByRole("tab", { name: "Approved" }).click();
  await expect(page).toHaveURL(/\/admin\/kyb\?status=approved$/);
  await expect(page.getByRole("tab", { name: "Approved" })).toHaveAttribute("aria-selected", "true");
  await page.context().close();

  // At phone width.
  const phone = await signedInPage(browser, admin, 390);
  await phone.goto(`/admin/kyb/${t.organizationId}`);
  await expect(phone.getByTestId("kyb-decision")).toHaveCount(2, { timeout: 60_000 });
  await checkPage(phone, "admin-kyb-review-decided", phone.getByTestId("kyb-decision").first());
  await phone.setViewportSize({ width: 390, height: 844 }); // checkPage leaves it at 1280 px
  await phone.goto("/admin/kyb?status=all");
  await expect(phone.getByRole("tab", { name: "All" })).toHaveAttribute("aria-selected", "true");
  // At this width the queue is a card per submission, every field under its label, nothing cut off.
  const list = phone.getByRole("list", { name: "KYB submissions" });
  await expect(list).toBeVisible({ timeout: 60_000 });
  const card = list.getByRole("listitem").first();
  for (const label of ["Email", "Submitted", "Status", "Review"]) {
    await expect(card.locator("dt").filter({ hasText: label })).toBeVisible();
  }
  const review = card.locator("dl > div").filter({ has: phone.locator("dt", { hasText: "Review" }) });
  await expect(review.getByRole("link", { name: /^Review / })).toHaveAttribute("href", /^\/admin\/kyb\/[^/]+$/);
  expect(await clippedElements(list)).toEqual([]);
  await checkPage(phone, "admin-kyb-queue-all", phone.getByRole("link", { name: /^Review / }).first());
  await phone.context().close();
});

test("to a business user /admin does not exist, and signed out it asks to sign in", async ({ browser }) => {
  test.setTimeout(300_000);
  const t = await tenantWithClients();
  const page = await signedInPage(browser, t.account);
  const res = await page.goto("/admin/kyb");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await page.goto("/");
  await expect(page.getByRole("link", { name: "Admin", exact: true })).toHaveCount(0);
  await page.context().close();

  const anonymous = await browser.newContext({ baseURL: BASE_URL });
  const signedOut = await anonymous.newPage();
  await signedOut.goto("/admin");
  await expect(signedOut).toHaveURL(/\/sign-in/);
  await anonymous.close();
});
