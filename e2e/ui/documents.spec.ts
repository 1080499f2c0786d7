// The Documents and KYB pages in the browser: files go in through the dropzones
// (their file inputs) and our own upload route, come back listed with previews,
// and the server's verdict on a bad file (415) shows next to the file field.
import { expect, test, type Browser, type Page } from "@playwright/test";
import { PDFDocument } from "pdf-lib";
import { EXE, pdfOfSize, PNG, uploadCertificate } from "../api/_files";
import { joinTeam, tenantWithClients } from "../api/_helpers";
import { BASE_URL, signUp, type Account } from "../support/api";
import { checkPage, SCREENS_DIR } from "../support/screens";

const SCREENS = SCREENS_DIR;

async function signedInPage(browser: Browser, account: Account, width = 1280): Promise<Page> {
  const context = await browser.newContext({ baseURL: BASE_URL, viewport: { width, height: width > 500 ? 800 : 844 } });
  await context.addCookies((await account.session.storageState()).cookies);
  return context.newPage();
}

async function pdfWithPages(pages: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([300, 400]);
  return Buffer.from(await doc.save());
}

/** The hidden file input inside a dropzone, as a drop or a pick would fill it. */
const dropzoneInput = (page: Page, id: string) => page.getByTestId(`${id}-dropzone`).locator('input[type="file"]');

test("an owner uploads a PNG certificate and a PDF receipt sample, toggles and deletes them; a disguised .exe gets the server's 415", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const account = await signUp({ organizationName: "Docs Brokers" });
  const page = await signedInPage(browser, account);

  await page.goto("/documents");
  await expect(page.getByRole("heading", { name: "Documents", level: 1 })).toBeVisible();
  await expect(page.getByText("No certificates yet")).toBeVisible({ timeout: 60_000 });
  await checkPage(page, "documents-empty", page.getByText("No certificates yet"));

  // A certificate: a PNG, shown as its own thumbnail.
  await dropzoneInput(page, "certificate-file").setInputFiles({
    name: "operating-licence.png",
    mimeType: "image/png",
    buffer: PNG,
  });
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("operating licence");
  await page.getByLabel("Name", { exact: true }).fill("Operating licence 2026");
  await page.getByLabel("Type", { exact: true }).fill("Insurance licence");
  await page.getByRole("button", { name: "Upload certificate" }).click();
  await expect(page.getByText("“Operating licence 2026” uploaded")).toBeVisible({ timeout: 60_000 });

  const cert = page.getByTestId("certificate-row").filter({ hasText: "Operating licence 2026" });
  await expect(cert).toContainText("Insurance licence");
  await expect(cert).toContainText("active");
  await expect(cert).toContainText("operating-licence.png");
  const thumbnail = cert.getByTestId("file-preview").locator("img");
  await expect(thumbnail).toHaveAttribute("src", /\/api\/files\/[\w-]+$/);
  // The thumbnail really is the stored image, served to this member.
  await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
  // The form is ready for the next one.
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("");
  await checkPage(page, "documents", cert);

  // Deactivate, and it stays so after a reload (the server's state); then activate again.
  const toggle = cert.getByRole("switch", { name: "Active: Operating licence 2026" });
  await expect(toggle).toHaveAttribute("aria-checked", "true");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-checked", "false", { timeout: 30_000 });
  await expect(cert).toContainText("inactive");
  await page.reload();
  await expect(toggle).toHaveAttribute("aria-checked", "false", { timeout: 60_000 });
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-checked", "true", { timeout: 30_000 });
  await expect(cert.getByText("active", { exact: true })).toBeVisible();

  // An executable named .pdf passes the browser's check; the server judges the bytes.
  await dropzoneInput(page, "certificate-file").setInputFiles({ name: "policy.pdf", mimeType: "application/pdf", buffer: EXE });
  await page.getByLabel("Type", { exact: true }).fill("Tax clearance");
  const refused = page.waitForResponse((r) => r.url().endsWith("/api/upload/business/documents/certificates"));
  await page.getByRole("button", { name: "Upload certificate" }).click();
  expect((await refused).status()).toBe(415);
  const fileError = page.locator("#certificate-file-error");
  await expect(fileError).toHaveText("Choose a PDF, PNG or JPEG file");
  await expect(page.getByTestId("certificate-file-dropzone")).toHaveAttribute("aria-describedby", /certificate-file-error/);
  await checkPage(page, "documents-upload-error", fileError);
  await expect(page.getByTestId("certificate-row")).toHaveCount(1);

  // A receipt sample: a two-page PDF, shown as a PDF icon with its page count.
  await page.getByRole("tab", { name: "Receipt samples" }).click();
  await expect(page.getByRole("tab", { name: "Receipt samples" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByText("No receipt samples yet")).toBeVisible();
  await dropzoneInput(page, "receiptSample-file").setInputFiles({
    name: "standard-receipt.pdf",
    mimeType: "application/pdf",
    buffer: await pdfWithPages(2),
  });
  await page.getByRole("button", { name: "Upload receipt sample" }).click();
  await expect(page.getByText("“standard receipt” uploaded")).toBeVisible({ timeout: 60_000 });
  const sample = page.getByTestId("receipt-sample-row").filter({ hasText: "standard receipt" });
  await expect(sample).toContainText("standard-receipt.pdf");
  await expect(sample.getByTestId("file-preview")).toContainText("2 pages");
  await expect(sample.getByTestId("file-preview")).toHaveAttribute("href", /\/api\/files\/[\w-]+$/);
  await expect(sample).toContainText("used on receipts");
  await checkPage(page, "documents-receipts", sample);

  await sample.getByRole("button", { name: "Delete standard receipt" }).click();
  const confirmSample = page.getByRole("alertdialog");
  await expect(confirmSample).toContainText("cannot be undone");
  await checkPage(page, "documents-delete-dialog", confirmSample);
  await confirmSample.getByRole("button", { name: "Delete receipt sample" }).click();
  await expect(page.getByText("No receipt samples yet")).toBeVisible();

  // Back to certificates: delete asks first; cancelling keeps it.
  await page.getByRole("tab", { name: "Certificates" }).click();
  await cert.getByRole("button", { name: "Delete Operating licence 2026" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Cancel" }).click();
  await expect(cert).toBeVisible();
  await cert.getByRole("button", { name: "Delete Operating licence 2026" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete certificate" }).click();
  await expect(page.getByText("No certificates yet")).toBeVisible({ timeout: 30_000 });
  await page.reload();
  await expect(page.getByText("No certificates yet")).toBeVisible({ timeout: 60_000 });
});

test("an upload shows its progress while the bytes go up", async ({ browser }) => {
  test.setTimeout(300_000);
  const account = await signUp();
  const page = await signedInPage(browser, account);
  await page.goto("/documents");
  await expect(page.getByText("No certificates yet")).toBeVisible({ timeout: 60_000 });

  // About 6 s for 600 KB: long enough to see the bar move.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 100 * 1024,
  });

  await dropzoneInput(page, "certificate-file").setInputFiles({
    name: "big-licence.pdf",
    mimeType: "application/pdf",
    buffer: pdfOfSize(600 * 1024),
  });
  await page.getByLabel("Type", { exact: true }).fill("Operating permit");
  await page.getByRole("button", { name: "Upload certificate" }).click();
  const bar = page.getByRole("progressbar", { name: "Uploading big-licence.pdf" });
  await expect(bar).toBeVisible();
  await expect.poll(async () => Number(await bar.getAttribute("aria-valuenow")), { timeout: 30_000 }).toBeGreaterThan(0);
  await page.screenshot({ path: `${SCREENS}/documents-progress-1280.png`, fullPage: true });
  await expect(page.getByTestId("certificate-row").filter({ hasText: "big licence" })).toContainText("1 page", {
    timeout: 60_000,
  });
  await expect(bar).toHaveCount(0);
});

test("a business submits its KYB through two dropzones and sees it under review", async ({ browser }) => {
  test.setTimeout(300_000);
  const account = await signUp();
  const page = await signedInPage(browser, account);
  await page.goto("/kyb");
  await expect(page.getByTestId("kyb-status")).toContainText("Not submitted", { timeout: 60_000 });
  await expect(page.getByTestId("kyb-status")).toContainText("certificate of incorporation");

  await dropzoneInput(page, "kyb-certificateOfIncorporation").setInputFiles({
    name: "cac.png",
    mimeType: "image/png",
    buffer: PNG,
  });
  await page.getByRole("button", { name: "Submit for review" }).click();
  await expect(page.locator("#kyb-taxCertificate-error")).toHaveText("Add your tax certificate");

  await dropzoneInput(page, "kyb-taxCertificate").setInputFiles({
    name: "tin.pdf",
    mimeType: "application/pdf",
    buffer: await pdfWithPages(1),
  });
  await page.getByRole("button", { name: "Submit for review" }).click();
  await expect(page.getByTestId("kyb-status")).toContainText("Under review", { timeout: 60_000 });
  await expect(page.getByRole("button", { name: "Submit for review" })).toHaveCount(0);
  const docs = page.getByTestId("kyb-document");
  await expect(docs).toHaveCount(2);
  await expect(docs.nth(0)).toContainText("Certificate of incorporation");
  await expect(docs.nth(0)).toContainText("cac.png");
  await expect(docs.nth(1)).toContainText("Tax certificate");
  await expect(docs.nth(1)).toContainText("tin.pdf");
});

test("a MEMBER sees documents and KYB read-only", async ({ browser }) => {
  test.setTimeout(600_000);
  const t = await tenantWithClients();
  await uploadCertificate(t.write, { name: "Broker licence 2026", type: "broker licence" });
  const { account } = await joinTeam(t, "MEMBER");

  for (const width of [1280, 390]) {
    const page = await signedInPage(browser, account, width);
    await page.goto("/documents");
    await expect(page.getByText("Only owners and admins upload, change or delete documents")).toBeVisible();
    const row = page.getByTestId("certificate-row").filter({ hasText: "Broker licence 2026" });
    await expect(row).toContainText("1 page", { timeout: 60_000 });
    await expect(row.getByRole("link", { name: "Download Broker licence 2026" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Upload certificate" })).toHaveCount(0);
    await expect(page.getByRole("main").getByRole("switch")).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^Delete/ })).toHaveCount(0);
    // Judged (axe, no sideways scroll) and shot at both widths once.
    if (width === 1280) await checkPage(page, "member-documents", row);

    await page.goto("/kyb");
    await expect(page.getByTestId("kyb-status")).toContainText("Not submitted", { timeout: 60_000 });
    await expect(page.getByText("Only owners and admins submit the verification documents")).toBeVisible();
    await expect(page.getByRole("button", { name: "Submit for review" })).toHaveCount(0);
    await page.context().close();
  }
});
