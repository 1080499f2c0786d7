// KYB end to end in the browser: a business owner submits both documents, a
// platform admin (another browser) sees them inline and rejects with a reason,
// the owner reads the reason and resubmits, the admin approves. A MEMBER sees
// the page read-only; the owner cannot reach /admin. Both decisions reach the
// owner's mailbox (the app's local outbox).
import { expect, test, type Browser, type Locator, type Page } from "@playwright/test";
import { PNG, JPEG, pdfFile, sha256 } from "../api/_files";
import { createKey, joinTeam, restClient } from "../api/_helpers";
import { waitForMailbox, type ParsedMail } from "../api/_mail";
import { BASE_URL, signInPlatformAdmin, trpc, unique, type Account } from "../support/api";
import { checkPage } from "../support/screens";
import { WITH_PDF_VIEWER } from "../support/browsers";

// The admin sees the PDFs inline: the full browser, which has a PDF viewer.
test.use(WITH_PDF_VIEWER);

/** A time as the dashboard shows it ("23 Nov 2026, 08:45 UTC"): the page says when it was submitted or decided. */
const WHEN = /\d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC/;
const REASON = "The tax certificate is for another company.\nSend the one issued to your business.";

interface KybDoc {
  kind: "certificateOfIncorporation" | "taxCertificate";
  url: string;
  fileName: string;
  contentType: string;
}

/** The browser context's own session, usable with the tRPC helpers (page.request shares its cookies). */
const browserAccount = (page: Page): Account => ({ session: page.request, email: "", password: "", userId: "" });

async function signedInPage(browser: Browser, account?: Account): Promise<Page> {
  const context = await browser.newContext({ baseURL: BASE_URL });
  if (account) await context.addCookies((await account.session.storageState()).cookies);
  return context.newPage();
}

/** Picks files through the dropzones' own file inputs. */
async function chooseDocuments(
  page: Page,
  incorporation: { name: string; mimeType: string; buffer: Buffer },
  tax: typeof incorporation,
) {
  await page.locator("input#kyb-certificateOfIncorporation").setInputFiles(incorporation);
  await page.locator("input#kyb-taxCertificate").setInputFiles(tax);
  await expect(page.getByText(incorporation.name, { exact: true })).toBeVisible();
  await expect(page.getByText(tax.name, { exact: true })).toBeVisible();
}

/** The organization's row in the admin's queue, following "Load more" (older submissions come first). */
async function queueRow(page: Page, name: string): Promise<Locator> {
  const table = page.getByRole("table", { name: "KYB submissions" });
  await expect(table).toBeVisible({ timeout: 30_000 });
  const row = table.locator("tbody tr").filter({ hasText: name });
  const more = page.getByRole("button", { name: "Load more" });
  await expect(async () => {
    if ((await row.count()) === 0 && (await more.isEnabled().catch(() => false))) await more.click();
    await expect(row).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  return row;
}

const kybStatus = (page: Page) =>
  trpc<{ status: string; documents: KybDoc[] }>(browserAccount(page), "kyb.status", undefined, "query");
const docOf = (docs: KybDoc[], kind: KybDoc["kind"]) => docs.find((d) => d.kind === kind)!;

/** The admin's review page shows both documents inline, from the URLs the owner's API gives, with the uploaded bytes. */
async function expectInlineDocuments(admin: Page, docs: KybDoc[], bytes: Record<KybDoc["kind"], Buffer>) {
  await expect(admin.getByTestId("kyb-inline-document")).toHaveCount(2);
  for (const doc of docs) {
    const title = `${doc.kind === "taxCertificate" ? "Tax certificate" : "Certificate of incorporation"}: ${doc.fileName}`;
    const shown =
      doc.contentType === "application/pdf" ? admin.locator(`iframe[title="${title}"]`) : admin.getByRole("img", { name: title });
    await expect(shown).toHaveAttribute("src", doc.url);
    const res = await admin.request.get(doc.url);
    expect(res.status(), doc.url).toBe(200);
    expect(res.headers()["content-type"]).toContain(doc.contentType);
    expect(sha256(await res.body())).toBe(sha256(bytes[doc.kind]));
    if (doc.contentType.startsWith("image/")) {
      await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    } else {
      // Framed, not refused: a blocked frame (X-Frame-Options, CSP) ends on Chrome's error page instead.
      const frame = await (await shown.elementHandle())!.contentFrame();
      await expect.poll(() => frame?.url()).toBe(doc.url);
    }
  }
}

test("KYB: submit, rejected with a reason, resubmit, approved; the admin sees the documents inline; a MEMBER reads it; both decisions are mailed", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const business = `Verified Cover ${unique()}`;
  const ownerEmail = `kyb-owner-${unique()}@example.test`;

  // ---- The owner signs up in the browser ----
  const owner = await signedInPage(browser);
  await owner.goto("/sign-up");
  await owner.getByLabel("Your name").fill("Kemi Adeyemi");
  await owner.getByLabel("Business name").fill(business);
  await owner.getByLabel("Work email").fill(ownerEmail);
  await owner.getByLabel("Password").fill("correct-horse-battery");
  await owner.getByRole("button", { name: "Create account" }).click();
  await expect(owner.getByRole("heading", { name: "Welcome, Kemi" })).toBeVisible({ timeout: 30_000 });

  // ---- Not submitted ----
  await owner.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Verification (KYB)" }).click();
  await expect(owner).toHaveURL(/\/kyb$/);
  await expect(owner.getByRole("heading", { name: "Verification (KYB)", level: 1 })).toBeVisible();
  const status = owner.getByTestId("kyb-status");
  await expect(status).toContainText("Not submitted", { timeout: 30_000 });
  await expect(status).toContainText("certificate of incorporation");
  await expect(owner.getByTestId("kyb-document")).toHaveCount(0);
  await checkPage(owner, "kyb-not-submitted", owner.getByRole("button", { name: "Submit for review" }));

  // Submitting without files: each dropzone says what is missing; nothing is sent.
  await owner.getByRole("button", { name: "Submit for review" }).click();
  await expect(owner.getByText("Add your certificate of incorporation")).toBeVisible();
  await expect(owner.getByText("Add your tax certificate")).toBeVisible();
  expect((await kybStatus(owner)).status).toBe("not_submitted");
  await checkPage(owner, "kyb-missing-files", owner.getByText("Add your tax certificate"));

  // ---- Submit both documents: a PDF and a PNG ----
  const first = {
    certificateOfIncorporation: {
      name: "incorporation.pdf",
      mimeType: "application/pdf",
      buffer: await pdfFile(`CAC ${business}`),
    },
    taxCertificate: { name: "tin-certificate.png", mimeType: "image/png", buffer: PNG },
  };
  await chooseDocuments(owner, first.certificateOfIncorporation, first.taxCertificate);
  await owner.getByRole("button", { name: "Submit for review" }).click();
  await expect(owner.getByText("Documents submitted for review")).toBeVisible({ timeout: 30_000 });
  await expect(status).toContainText("Under review");
  await expect(status).toContainText(WHEN);
  await expect(owner.getByRole("button", { name: "Submit for review" })).toHaveCount(0);
  const ownerDocs = owner.getByTestId("kyb-document");
  await expect(ownerDocs).toHaveCount(2);
  await expect(ownerDocs.filter({ hasText: "Certificate of incorporation" })).toContainText("incorporation.pdf");
  await expect(ownerDocs.filter({ hasText: "Tax certificate" })).toContainText("tin-certificate.png");
  await checkPage(owner, "kyb-pending", status);
  const submitted = await kybStatus(owner);
  expect(submitted.status).toBe("pending");

  // ---- The owner is no platform admin: /admin does not exist for them ----
  for (const path of ["/admin", "/admin/kyb"]) {
    const res = await owner.goto(path);
    expect(res?.status(), path).toBe(404);
    await expect(owner.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expect(owner.getByText(business)).toHaveCount(0);
  }

  // ---- The platform admin, in another browser ----
  const admin = await signedInPage(browser, await signInPlatformAdmin());
  await admin.goto("/admin");
  await expect(admin).toHaveURL(/\/admin\/kyb$/);
  await expect(admin.getByRole("heading", { name: "KYB reviews", level: 1 })).toBeVisible();
  await expect(admin.getByRole("tab", { name: "Pending" })).toHaveAttribute("aria-selected", "true");
  const row = await queueRow(admin, business);
  await expect(row).toContainText("Under review");
  await row.getByRole("link", { name: business, exact: true }).click();

  // (a dev server compiles the review page on its first visit)
  await expect(admin).toHaveURL(/\/admin\/kyb\/[^/]+$/, { timeout: 60_000 });
  const reviewHeading = admin.getByRole("heading", { name: business, level: 1 });
  await expect(reviewHeading).toBeVisible({ timeout: 30_000 });
  await expect(admin.getByRole("main")).toContainText("Under review");
  await expect(admin.getByText("No decisions yet: this is the first submission.")).toBeVisible();
  await expectInlineDocuments(admin, submitted.documents, {
    certificateOfIncorporation: first.certificateOfIncorporation.buffer,
    taxCertificate: first.taxCertificate.buffer,
  });
  await checkPage(admin, "admin-kyb-review", reviewHeading);

  // Reject: the dialog refuses a too-short reason first.
  await admin.getByRole("button", { name: "Reject", exact: true }).click();
  const rejectDialog = admin.getByRole("dialog", { name: `Reject ${business}?` });
  await expect(rejectDialog).toBeVisible();
  await rejectDialog.getByLabel("Reason").fill("  bad ");
  await rejectDialog.getByRole("button", { name: "Reject KYB" }).click();
  await expect(rejectDialog.getByText("Say why in at least 5 characters")).toBeVisible();
  await expect(rejectDialog.getByLabel("Reason")).toHaveAttribute("aria-invalid", "true");
  expect((await kybStatus(owner)).status).toBe("pending");
  await checkPage(admin, "admin-kyb-reject-dialog", rejectDialog.getByText("Say why in at least 5 characters"));
  await rejectDialog.getByLabel("Reason").fill(REASON);
  await rejectDialog.getByRole("button", { name: "Reject KYB" }).click();
  await expect(admin.getByText("KYB rejected")).toBeVisible();
  await expect(rejectDialog).toBeHidden();
  await expect(admin.getByRole("main")).toContainText("Rejection reason");
  await expect(admin.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect(admin.getByRole("button", { name: "Reject", exact: true })).toHaveCount(0);
  const decisions = admin.getByTestId("kyb-decision");
  await expect(decisions).toHaveCount(1);
  await expect(decisions.first()).toContainText("Rejected by");
  await expect(decisions.first()).toContainText("The tax certificate is for another company.");

  // ---- The owner reads the reason ----
  await owner.goto("/kyb");
  await expect(status).toContainText("Rejected", { timeout: 30_000 });
  await expect(owner.getByTestId("kyb-rejection-reason")).toHaveText(REASON);
  await expect(owner.getByRole("heading", { name: "Resubmit corrected documents" })).toBeVisible();
  await expect(owner.getByRole("list", { name: "Documents you submitted" }).getByTestId("kyb-document")).toHaveCount(2);
  await checkPage(owner, "kyb-rejected", owner.getByTestId("kyb-rejection-reason"));

  // ---- A MEMBER (invited through the team API) reads the page, read-only ----
  const key = await createKey(browserAccount(owner), ["read", "write"]);
  const write = await restClient(key.key);
  const { account: memberAccount } = await joinTeam({ write, organizationId: key.organizationId }, "MEMBER");
  const member = await signedInPage(browser, memberAccount);
  await member.goto("/");
  await member.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Verification (KYB)" }).click();
  const memberStatus = member.getByTestId("kyb-status");
  await expect(memberStatus).toContainText("Rejected", { timeout: 30_000 });
  await expect(member.getByTestId("kyb-rejection-reason")).toHaveText(REASON);
  await expect(member.getByText(/Only owners and admins submit/)).toBeVisible();
  await expect(member.getByTestId("kyb-document")).toHaveCount(2);
  await expect(member.getByRole("button", { name: /submit for review/i })).toHaveCount(0);
  await expect(member.locator('input[type="file"]')).toHaveCount(0);
  await checkPage(member, "member-kyb-rejected", member.getByTestId("kyb-rejection-reason"));

  // ---- Resubmit with new files: a new PDF and a JPEG ----
  const second = {
    certificateOfIncorporation: {
      name: "incorporation-2.pdf",
      mimeType: "application/pdf",
      buffer: await pdfFile(`CAC ${business} (2)`),
    },
    taxCertificate: { name: "tin-ours.jpg", mimeType: "image/jpeg", buffer: JPEG },
  };
  await chooseDocuments(owner, second.certificateOfIncorporation, second.taxCertificate);
  await owner.getByRole("button", { name: "Resubmit for review" }).click();
  await expect(owner.getByText("Documents resubmitted for review")).toBeVisible({ timeout: 30_000 });
  await expect(status).toContainText("Under review");
  await expect(owner.getByTestId("kyb-rejection-reason")).toHaveCount(0);
  await expect(ownerDocs).toHaveCount(2);
  await expect(ownerDocs.filter({ hasText: "Certificate of incorporation" })).toContainText("incorporation-2.pdf");
  await expect(ownerDocs.filter({ hasText: "Tax certificate" })).toContainText("tin-ours.jpg");
  const resubmitted = await kybStatus(owner);
  expect(resubmitted.status).toBe("pending");
  expect(docOf(resubmitted.documents, "taxCertificate").url).not.toBe(docOf(submitted.documents, "taxCertificate").url);

  // The member sees it pending, still with nothing to submit.
  await member.reload();
  await expect(memberStatus).toContainText("Under review", { timeout: 30_000 });
  await expect(member.getByText(/Only owners and admins submit/)).toHaveCount(0);
  await expect(member.getByRole("button", { name: /submit for review/i })).toHaveCount(0);

  // ---- The admin approves the new documents ----
  await admin.reload();
  await expect(reviewHeading).toBeVisible({ timeout: 30_000 });
  await expectInlineDocuments(admin, resubmitted.documents, {
    certificateOfIncorporation: second.certificateOfIncorporation.buffer,
    taxCertificate: second.taxCertificate.buffer,
  });
  await admin.getByRole("button", { name: "Approve" }).click();
  const confirm = admin.getByRole("alertdialog");
  await expect(confirm).toContainText(`Approve ${business}?`);
  await confirm.getByRole("button", { name: "Approve KYB" }).click();
  await expect(admin.getByText("KYB approved")).toBeVisible();
  await expect(confirm).toBeHidden();
  await expect(admin.getByText("Approved: nothing left to decide.")).toBeVisible();
  await checkPage(admin, "admin-kyb-approved", admin.getByText("Approved: nothing left to decide."));
  await expect(admin.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect(decisions).toHaveCount(2);
  await expect(decisions.first()).toContainText("Approved by");
  await expect(decisions.nth(1)).toContainText("Rejected by");

  // ---- The owner's page shows it approved ----
  await owner.reload();
  await expect(status).toContainText("Approved", { timeout: 30_000 });
  await expect(status).toContainText(WHEN);
  await expect(owner.getByRole("button", { name: /submit for review/i })).toHaveCount(0);
  await expect(ownerDocs).toHaveCount(2);
  await checkPage(owner, "kyb-approved", status);

  // ---- Both decisions are in the owner's mailbox (sent by the app's worker) ----
  const subjects = { rejected: "Your business verification was not approved", approved: "Your business is verified" };
  const has = (mails: ParsedMail[], subject: string) => mails.filter((m) => m.subject === subject);
  const mailbox = await waitForMailbox(
    ownerEmail,
    (m) => has(m, subjects.rejected).length > 0 && has(m, subjects.approved).length > 0,
    "the rejected and the approved KYB mails",
  );
  expect(has(mailbox, subjects.rejected)).toHaveLength(1);
  expect(has(mailbox, subjects.approved)).toHaveLength(1);
  const rejectedMail = has(mailbox, subjects.rejected)[0]!;
  expect(rejectedMail.text).toContain(`Coverdesk could not approve the documents of ${business}.`);
  expect(rejectedMail.text).toContain(`Reason: ${REASON}`);
  expect(rejectedMail.text).toContain(`${BASE_URL}/kyb`);
  expect(has(mailbox, subjects.approved)[0]!.text).toContain(`approved the documents of ${business}`);
  // The rejection came first.
  expect(mailbox.indexOf(rejectedMail)).toBeLessThan(mailbox.indexOf(has(mailbox, subjects.approved)[0]!));

  await write.dispose();
  for (const page of [owner, admin, member]) await page.context().close();
});
