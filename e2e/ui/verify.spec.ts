// The public verification page /verify/<certificateNumber>: anyone (no
// session) sees whether a certificate is valid today with the business, the
// policy and the period — never the policyholder's email or name, nor money;
// an unknown or malformed number is a 404. And the dashboard's customer page,
// where each coverage shows its certificate number, its download and a link
// to this page. (The expired state is covered by the service test.)
import { expect, test, type Page } from "@playwright/test";
import { extractText, getDocumentProxy } from "unpdf";
import { CARDS, createPolicyFor, initializeFor, ok, payReference, tenantWithClients } from "../api/_helpers";
import { trpc, unique } from "../support/api";
import { checkPage, FIRST_LOAD, signedInPage } from "../support/screens";

const MONTHS = "January February March April May June July August September October November December".split(" ");
/** "5 January 2026, 09:04 UTC", written out independently of the app's formatter. */
const dateTime = (iso: string) => {
  const d = new Date(iso);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${two(d.getUTCHours())}:${two(d.getUTCMinutes())} UTC`;
};

/** What the page's robots meta tags say, together. */
const robots = async (page: Page) =>
  (await page.locator('meta[name="robots"]').evaluateAll((tags) => tags.map((t) => t.getAttribute("content")))).join(", ");

/** A coverage bought on the hosted checkout by a named customer. */
async function purchase(mode: "live" | "test" = "live") {
  const business = `Verified Traders ${unique()}`;
  const t = await tenantWithClients(business, mode);
  const policy = await createPolicyFor(t.write, { name: `Goods in Transit ${unique()}`, type: "liability", price: "7250.00" });
  const email = `holder-${unique()}@example.test`;
  const payment = await initializeFor(t.write, policy, email);
  expect((await payReference(payment.reference, CARDS.success, { name: "Chiamaka Eze" })).status).toBe(200);
  const { coverage } = await ok(await t.read.get(`payments/verify/${payment.reference}`));
  return { t, business, policy, email, coverage };
}

test("a valid certificate: valid today, with the business, policy and dates and nothing about the holder or money", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { business, policy, email, coverage } = await purchase();
  const res = await page.goto(`/verify/${coverage.certificateNumber}`);
  expect(res!.status()).toBe(200);
  const status = page.getByTestId("verify-status");
  await expect(status).toHaveText(/^Valid — this certificate is active today/, { timeout: FIRST_LOAD });
  await expect(status).toHaveAttribute("data-status", "active");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Certificate of insurance");
  await expect(page.getByTestId("verify-number")).toHaveText(coverage.certificateNumber);
  await expect(page.getByTestId("verify-business")).toHaveText(business);
  const main = page.getByRole("main");
  for (const text of [policy.name, "Liability insurance", dateTime(coverage.startsAt), dateTime(coverage.endsAt)])
    await expect(main).toContainText(text);
  await expect(page.getByTestId("verify-test-banner")).toHaveCount(0);
  expect(await robots(page)).toMatch(/noindex/);

  // Nothing about the policyholder anywhere in the document (its data included), and no money on it.
  const html = await page.content();
  for (const secret of [email, email.split("@")[0]!, "Chiamaka"])
    expect(html, `the page must not contain ${secret}`).not.toContain(secret);
  const visible = await page.locator("body").innerText();
  for (const money of ["7250", "7,250", "NGN", "₦", "Eze"])
    expect(visible, `the page must not show ${money}`).not.toContain(money);

  await checkPage(page, "verify-valid", status);
});

test("an unknown or malformed number is the 404 page", async ({ page }) => {
  test.setTimeout(120_000);
  const unknown = await page.goto("/verify/COI-00000000000000000000");
  expect(unknown!.status()).toBe(404);
  const heading = page.getByRole("heading", { name: "Certificate not found" });
  await expect(heading).toBeVisible({ timeout: FIRST_LOAD });
  expect(await robots(page)).toMatch(/noindex/);
  await checkPage(page, "verify-not-found", heading);

  for (const malformed of ["nonsense", "coi-00000000000000000000", "COI-0000", "%27%20OR%201%3D1"]) {
    const res = await page.goto(`/verify/${malformed}`);
    expect(res!.status(), malformed).toBe(404);
    await expect(heading).toBeVisible();
  }
});

test("a test-mode certificate says it is not real cover", async ({ page }) => {
  test.setTimeout(120_000);
  const { coverage } = await purchase("test");
  await page.goto(`/verify/${coverage.certificateNumber}`);
  const banner = page.getByTestId("verify-test-banner");
  await expect(banner).toContainText("Test certificate — not real cover", { timeout: FIRST_LOAD });
  await expect(page.getByTestId("verify-status")).toHaveAttribute("data-status", "active");
  await checkPage(page, "verify-test", banner);
});

test("the customer page: each coverage's certificate number, its download, and the verification page in a new tab", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { t, email, coverage } = await purchase();
  const customers = await trpc<{ data: { id: string; email: string }[] }>(t.account, "customers.list", { limit: 10 }, "query");
  const customer = customers.data.find((c) => c.email === email)!;
  const page = await signedInPage(browser, t.account);
  await page.goto(`/customers/${customer.id}`);
  const region = page.getByRole("region", { name: "Coverages", exact: true });
  const row = region.getByRole("table").getByTestId("customer-coverage");
  await expect(row).toHaveCount(1, { timeout: FIRST_LOAD });
  await expect(row.getByTestId("coverage-certificate-number")).toHaveText(coverage.certificateNumber);
  await checkPage(page, "customer-certificates", region);

  // The download: the PDF itself, named by its number.
  const downloading = page.waitForEvent("download");
  await row.getByRole("link", { name: `Download certificate ${coverage.certificateNumber}` }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`certificate-${coverage.certificateNumber}.pdf`);
  const bytes = new Uint8Array(await (await download.createReadStream()).toArray().then((c) => Buffer.concat(c)));
  const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
  expect(text.replace(/\s+/g, " ")).toContain(coverage.certificateNumber);
  expect(text).toContain(email);

  // Verify opens the public page in a new tab.
  const verify = row.getByRole("link", { name: `Verify ${coverage.certificateNumber} (opens in a new tab)` });
  await expect(verify).toHaveAttribute("target", "_blank");
  const opening = page.context().waitForEvent("page");
  await verify.click();
  const tab = await opening;
  await expect(tab).toHaveURL(new RegExp(`/verify/${coverage.certificateNumber}$`));
  await expect(tab.getByTestId("verify-status")).toHaveAttribute("data-status", "active", { timeout: FIRST_LOAD });
  await page.context().close();
});
