// Evidence on a claim in the browser: a member adds a photo and a PDF on the
// claim's page and sees them inline (the photo really loaded from
// /api/files/<id>, opening full size; the PDF a row to open or download), the
// server's reasons show (415 for a text file called .png, 409 past five), and
// "Add files" stops at five. Filing a claim takes files too: sent with the
// claim in one request and stored together — a refused file files nothing,
// the dialog names it, and filing again without it works.
import { expect, test, type FileChooser, type Locator, type Page } from "@playwright/test";
import { rgbPng } from "../../src/test/png";
import { pdfFile, pngPart } from "../api/_files";
import { createPolicyFor, joinTeam, ok, tenantWithClients } from "../api/_helpers";
import { unique } from "../support/api";
import { checkPage, FIRST_LOAD, signedInPage } from "../support/screens";

/** A real `width`×`height` PNG: sky over grass with a red box (something to see in the screenshots). */
const photoPng = (width = 240, height = 160) =>
  rgbPng(width, height, (x, y) => {
    const box = x > width * 0.35 && x < width * 0.65 && y > height * 0.3 && y < height * 0.75;
    return box ? [200, 40, 40] : y < height * 0.6 ? [120, 180, 230] : [70, 150, 70];
  });

const TEXT_AS_PNG = { name: "notes.png", mimeType: "image/png", buffer: Buffer.from("not an image, just notes\n") };

/** Picks files through the page's own "Add files" button, as a user would. */
async function pickFiles(page: Page, button: Locator, files: Parameters<FileChooser["setFiles"]>[0]) {
  const chooser = page.waitForEvent("filechooser");
  await button.click();
  await (await chooser).setFiles(files);
}

test("a member adds a photo and a PDF on the claim page and sees them inline; the server's reasons show; five at most", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const t = await tenantWithClients();
  const policy = await createPolicyFor(t.write, { name: `Shop Cover ${unique()}` });
  const claim = await ok(
    await t.write.post("claims", {
      data: { policyId: policy.id, type: "fire", description: "Fire in the store room", amount: 1200 },
    }),
    201,
  );
  const member = await joinTeam(t, "MEMBER");
  const page = await signedInPage(browser, member.account);
  await page.goto(`/claims/${claim.id}`);
  const evidence = page.getByRole("region", { name: "Evidence" });
  await expect(evidence.getByText("No evidence yet")).toBeVisible({ timeout: FIRST_LOAD });
  await expect(evidence.getByTestId("evidence-room")).toContainText("0 of 5 files");
  await checkPage(page, "claim-evidence-empty", evidence.getByText("No evidence yet"));

  // ---- A photo: a thumbnail of the stored image, opening full size ----
  const addFiles = evidence.getByRole("button", { name: "Add files" });
  await pickFiles(page, addFiles, { name: "store-room.png", mimeType: "image/png", buffer: photoPng() });
  const photo = evidence.getByTestId("evidence-image");
  await expect(photo).toHaveCount(1, { timeout: 30_000 });
  await expect(photo).toContainText("store-room.png");
  const thumbnail = photo.locator("img");
  await expect(thumbnail).toHaveAttribute("src", /^\/api\/files\/[\w-]+$/);
  await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(240);
  const src = (await thumbnail.getAttribute("src"))!;
  await photo.getByRole("button", { name: "View store-room.png" }).click();
  const viewer = page.getByRole("dialog", { name: "store-room.png" });
  const full = viewer.getByRole("img", { name: "store-room.png" });
  await expect.poll(() => full.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(240);
  await expect(viewer.getByRole("link", { name: /^Open full size/ })).toHaveAttribute("target", "_blank");
  await checkPage(page, "claim-evidence-photo", full);
  await viewer.getByRole("button", { name: "Close" }).click();
  await expect(viewer).toBeHidden();

  // ---- A PDF: a row with its name and size, to open or download ----
  const pdf = await pdfFile("Police report");
  await pickFiles(page, addFiles, { name: "police-report.pdf", mimeType: "application/pdf", buffer: pdf });
  const doc = evidence.getByTestId("evidence-document");
  await expect(doc).toHaveCount(1, { timeout: 30_000 });
  await expect(doc).toContainText("police-report.pdf");
  const size = pdf.length < 1024 ? `${pdf.length} B` : `${(pdf.length / 1024).toFixed(pdf.length < 10 * 1024 ? 1 : 0)} KB`;
  await expect(doc).toContainText(`PDF · ${size} · Added`);
  const download = doc.getByRole("link", { name: "Download police-report.pdf" });
  await expect(download).toHaveAttribute("href", /^\/api\/files\/[\w-]+\?download=1$/);
  const opened = await page.request.get((await download.getAttribute("href"))!);
  expect(opened.status()).toBe(200);
  expect((await opened.body()).equals(pdf)).toBe(true);
  await expect(evidence.getByTestId("evidence-room")).toContainText("2 of 5 files");
  // What the API lists is what the page shows.
  const listed = (await ok(await t.read.get(`claims/${claim.id}/attachments`))).data;
  expect(listed.map((a: { fileName: string }) => a.fileName)).toEqual(["store-room.png", "police-report.pdf"]);

  // ---- The server judges the bytes: a text file called .png → its 415 reason ----
  await pickFiles(page, addFiles, TEXT_AS_PNG);
  await expect(evidence.getByRole("alert")).toContainText(
    "“notes.png” was not added: Only PDF, PNG and JPEG files are accepted (judged by their content).",
    { timeout: 30_000 },
  );
  await expect(evidence.getByTestId("evidence-image")).toHaveCount(1);
  await checkPage(page, "claim-evidence", doc);

  // ---- Five at most: the server's 409 when another upload took the last places, then the button explains ----
  for (let i = 0; i < 3; i++) {
    await ok(await t.write.post(`claims/${claim.id}/attachments`, { multipart: { file: pngPart(`api-${i}.png`) } }), 201);
  }
  await pickFiles(page, addFiles, { name: "one-more.png", mimeType: "image/png", buffer: photoPng(60, 40) });
  await expect(evidence.getByRole("alert")).toContainText(
    "“one-more.png” was not added: A claim can have at most 5 attachments.",
    {
      timeout: 30_000,
    },
  );
  await expect(evidence.getByTestId("evidence-image")).toHaveCount(4);
  await expect(addFiles).toBeDisabled();
  await expect(evidence.getByTestId("evidence-room")).toHaveText("5 of 5 files · A claim can have at most 5 attachments.");
  await page.reload();
  await expect(evidence.getByRole("button", { name: "Add files" })).toBeDisabled({ timeout: FIRST_LOAD });
  await checkPage(page, "claim-evidence-full", evidence.getByTestId("evidence-document"));

  // Another organization's member does not get the files.
  const stranger = await tenantWithClients();
  const strangerPage = await signedInPage(browser, stranger.account);
  expect((await strangerPage.request.get(src)).status()).toBe(404);
  await strangerPage.context().close();
  await page.context().close();
});

test("File a claim with files: one request, stored together; a refused file files nothing and the dialog says which", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const t = await tenantWithClients();
  const policy = await createPolicyFor(t.write, { name: `Fleet Cover ${unique()}` });
  const page = await signedInPage(browser, t.account);
  await page.goto("/claims");
  const fileClaim = async (description: string) => {
    await page.getByRole("button", { name: "File a claim" }).click();
    const dialog = page.getByRole("dialog", { name: "File a claim" });
    await dialog.getByLabel("Policy").selectOption({ label: policy.name });
    await dialog.getByLabel("Customer email").fill(`c-${unique()}@example.test`);
    await dialog.getByLabel("Amount claimed").fill("750");
    await dialog.getByLabel("What happened").fill(description);
    return dialog;
  };

  // ---- Every file attached: straight to the claim's page ----
  let dialog = await fileClaim("Van reversed into a bollard");
  await pickFiles(page, dialog.getByRole("button", { name: "Add files" }), [
    { name: "bumper.png", mimeType: "image/png", buffer: photoPng() },
    { name: "quote.pdf", mimeType: "application/pdf", buffer: await pdfFile("Repair quote") },
  ]);
  const chosen = dialog.getByRole("list", { name: "Evidence (optional)" }).getByRole("listitem");
  await expect(chosen).toHaveCount(2);
  await checkPage(page, "claims-file-dialog-files", chosen.first());
  // One request: the claim and both files, to the dashboard's upload route.
  const filed: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && /\/api\/(upload|trpc)\//.test(r.url())) filed.push(new URL(r.url()).pathname);
  });
  await dialog.getByRole("button", { name: "File claim" }).click();
  await expect(page).toHaveURL(/\/claims\/[a-z0-9]+$/, { timeout: FIRST_LOAD });
  expect(filed).toEqual(["/api/upload/claims"]);
  const evidence = page.getByRole("region", { name: "Evidence" });
  await expect(evidence.getByTestId("evidence-image")).toHaveCount(1, { timeout: FIRST_LOAD });
  await expect(evidence.getByTestId("evidence-document")).toContainText("quote.pdf");
  const firstId = page.url().split("/claims/")[1]!;
  expect((await ok(await t.read.get(`claims/${firstId}/attachments`))).data).toHaveLength(2);

  // ---- One refused: nothing is filed; the dialog names the file and why; filing again without it works ----
  await page.goto("/claims");
  dialog = await fileClaim("Windscreen chipped on the motorway");
  await pickFiles(page, dialog.getByRole("button", { name: "Add files" }), [
    { name: "windscreen.png", mimeType: "image/png", buffer: photoPng(120, 80) },
    TEXT_AS_PNG,
  ]);
  await dialog.getByRole("button", { name: "File claim" }).click();
  const refusal = dialog.getByRole("alert").filter({ hasText: "notes.png" });
  await expect(refusal).toContainText("“notes.png” cannot be attached: Only PDF, PNG and JPEG files are accepted", {
    timeout: 30_000,
  });
  await expect(refusal).toContainText("Nothing was filed");
  await checkPage(page, "claims-file-dialog-refused", refusal);
  // Nothing stored: no claim with that description (and so no evidence of it).
  const described = async () =>
    ((await ok(await t.read.get("claims"))).data as { id: string; description: string }[]).filter(
      (c) => c.description === "Windscreen chipped on the motorway",
    );
  expect(await described()).toEqual([]);
  // The form kept everything: remove the refused file and file again.
  await dialog.getByRole("button", { name: "Remove notes.png" }).click();
  await dialog.getByRole("button", { name: "File claim" }).click();
  await expect(page).toHaveURL(/\/claims\/[a-z0-9]+$/, { timeout: FIRST_LOAD });
  await expect(page.getByRole("region", { name: "Evidence" }).getByTestId("evidence-image")).toContainText("windscreen.png", {
    timeout: FIRST_LOAD,
  });
  const [second] = await described();
  expect(second).toBeDefined();
  expect(page.url()).toContain(`/claims/${second!.id}`);
  expect((await ok(await t.read.get(`claims/${second!.id}/attachments`))).data).toHaveLength(1);
  await page.context().close();
});
