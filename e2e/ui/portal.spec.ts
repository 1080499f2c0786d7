// The policyholder's side, end to end in a real browser: a customer pays on
// the hosted checkout, opens the portal link from their receipt email, signs
// in with the code from the sign-in email, downloads their certificate, files
// a claim with a photo — and the business sees that claim with the photo.
// Another policyholder's records are not found; the verification page tells
// valid, expired and unknown certificates apart without personal data.
import fs from "node:fs/promises";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { extractText, getDocumentProxy } from "unpdf";
import { PNG } from "../api/_files";
import { waitForMailbox } from "../api/_mail";
import { BASE_URL, createKey, restClient, signUp, trpc, unique, type Account } from "../support/api";
import { checkPage } from "../support/screens";
import { signInToPortal } from "./_portal";

async function businessWithPolicy(mode: "live" | "test" = "live") {
  const account = await signUp({ organizationName: `Harbour Mutual ${unique()}` });
  if (mode === "test") await trpc(account, "organizations.setMode", { livemode: false });
  const key = await createKey(account, ["read", "write"], `key-${unique()}`, mode);
  const api = await restClient(key.key);
  const res = await api.post("business/policies", {
    data: {
      name: "Shop Contents",
      type: "property",
      duration: "monthly",
      price: "1500",
      coverage: "Stock and fittings",
      exclusions: ["Wear and tear"],
    },
  });
  expect(res.status()).toBe(201);
  const policy = (await res.json()) as { id: string; price: string };
  return { account, api, organizationId: key.organizationId, policy };
}

async function payInBrowser(page: Page, authorizationUrl: string, name?: string) {
  await page.goto(authorizationUrl);
  if (name) await page.getByLabel(/name/i).first().fill(name);
  await page.getByLabel("Card number").fill("4242424242424242");
  await page.getByLabel("Expiry").fill("12/30");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Pay now" }).click();
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
}

/** Buys the policy over REST and the hosted checkout (through the API's page, no browser). */
async function buyOverApi(api: Awaited<ReturnType<typeof restClient>>, policy: { id: string; price: string }, email: string) {
  const init = await api.post("payments/initialize", { data: { amount: Number(policy.price), policyId: policy.id, email } });
  expect(init.status()).toBe(201);
  const { reference } = (await init.json()) as { reference: string };
  const pay = await api.post(`${BASE_URL}/api/checkout/${reference}`, {
    // Not renewing automatically: the verify test's cover must end at the test clock's end.
    data: { cardNumber: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123", autoRenew: false },
  });
  expect(pay.status()).toBe(200);
  const verified = await (await api.get(`payments/verify/${reference}`)).json();
  return verified.coverage as { id: string; certificateNumber: string };
}

async function businessPage(browser: Browser, account: Account): Promise<Page> {
  const context = await browser.newContext({ baseURL: BASE_URL, viewport: { width: 1280, height: 800 } });
  await context.addCookies((await account.session.storageState()).cookies);
  return context.newPage();
}

test("a customer pays, signs in to the portal from the receipt, downloads the certificate and files a claim with a photo the business then sees", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const { account, api, organizationId, policy } = await businessWithPolicy();
  const customer = `holder-${unique()}@example.test`;

  // ---- Pays on the hosted checkout ----
  const init = await api.post("payments/initialize", {
    data: { amount: Number(policy.price), policyId: policy.id, email: customer },
  });
  const { authorizationUrl } = (await init.json()) as { authorizationUrl: string };
  await payInBrowser(page, authorizationUrl);

  // ---- The receipt email links the portal ----
  const receipts = await waitForMailbox(customer, (m) => m.some((x) => /receipt/i.test(x.subject)), "the receipt");
  const receipt = receipts.find((x) => /receipt/i.test(x.subject))!;
  const link = new RegExp(`${BASE_URL}/portal/${organizationId}/coverages/[\\w-]+`).exec(receipt.text)?.[0];
  expect(link, receipt.text).toBeTruthy();
  await page.goto(link!);

  // ---- Signs in with the emailed code (a wrong code first) ----
  await expect(page.getByRole("heading", { name: "Sign in to see your cover" })).toBeVisible();
  await checkPage(page, "portal-sign-in", page.getByLabel("Email address"));
  await page.getByRole("button", { name: "Email me a code" }).click();
  await expect(page.getByText("Enter your email address")).toBeVisible();
  await page.getByLabel("Email address").fill(customer);
  await page.getByRole("button", { name: "Email me a code" }).click();
  await expect(page.getByLabel("Sign-in code")).toBeVisible();
  await page.getByLabel("Sign-in code").fill("12");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Enter the 6-digit code from the email")).toBeVisible();
  const mails = await waitForMailbox(customer, (m) => m.some((x) => /sign-in code/.test(x.subject)), "a sign-in code");
  const code = /(\d{6}) is your/.exec(mails.find((x) => /sign-in code/.test(x.subject))!.subject)![1]!;
  await page.getByLabel("Sign-in code").fill(code === "000000" ? "111111" : "000000");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("This code is wrong or has expired")).toBeVisible();
  await page.getByLabel("Sign-in code").fill(code);
  await page.getByRole("button", { name: "Sign in" }).click();

  // ---- The coverage's page ----
  await expect(page.getByRole("heading", { name: "Shop Contents", level: 1 })).toBeVisible();
  await expect(page.getByTestId("portal-email")).toHaveText(customer);
  const certificateNumber = (await page.getByTestId("portal-certificate-number").textContent())!.trim();
  expect(certificateNumber).toMatch(/^COI-[0-9A-F]{20}$/);
  await checkPage(page, "portal-coverage", page.getByRole("button", { name: /Renew for/ }));

  // ---- Downloads the certificate ----
  const downloading = page.waitForEvent("download");
  await page.getByTestId("portal-download-certificate").click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  const bytes = await fs.readFile((await download.path())!);
  expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  expect(text).toContain(certificateNumber);
  expect(text).toContain("Shop Contents");
  expect(text).toContain(customer);
  expect(text).toContain(`/verify/${certificateNumber}`);

  // ---- Files a claim with a photo (a missing amount first) ----
  const form = page.getByTestId("portal-claim-form");
  await form.getByLabel("What kind of loss").selectOption("theft");
  await form.getByLabel("What happened").fill("The shop window was broken and stock taken overnight.");
  await form.getByRole("button", { name: "Submit claim" }).click();
  await expect(form.getByText("Enter an amount")).toBeVisible();
  await form.getByLabel(/Amount claimed/).fill("480.25");
  await form.getByLabel(/Photos and documents/).setInputFiles({ name: "broken-window.png", mimeType: "image/png", buffer: PNG });
  await expect(form.getByRole("list", { name: "Files to attach" })).toContainText("broken-window.png");
  await form.getByRole("button", { name: "Submit claim" }).click();

  await expect(page.getByText(/Your claim was sent/)).toBeVisible();
  await expect(page.getByTestId("portal-claim-status")).toContainText("submitted");
  const photo = page.getByTestId("portal-claim-files").getByRole("img", { name: "broken-window.png" });
  await expect(photo).toBeVisible();
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  const claimId = new URL(page.url()).pathname.split("/").pop()!;
  await checkPage(page, "portal-claim", photo);

  // ---- The overview lists it all ----
  await page.goto(`/portal/${organizationId}`);
  await expect(page.getByTestId("portal-coverage")).toHaveCount(1);
  await expect(page.getByTestId("portal-claim-row")).toHaveCount(1);
  await expect(page.getByTestId("portal-payment-row")).toHaveCount(1);
  await checkPage(page, "portal-home", page.getByTestId("portal-coverage"));

  // ---- The payment's receipt ----
  await page.getByTestId("portal-payment-row").getByRole("link", { name: "Receipt" }).click();
  await expect(page.getByRole("heading", { name: "Receipt", level: 1 })).toBeVisible();
  await expect(page.getByRole("main")).toContainText("₦1,500.00");
  await expect(page.getByRole("main")).toContainText(certificateNumber);
  await checkPage(page, "portal-receipt", page.getByRole("button", { name: "Print or save as PDF" }));

  // ---- The business sees the claim with the photo ----
  const staff = await businessPage(browser, account);
  await staff.goto(`/claims/${claimId}`);
  await expect(staff.getByText("The shop window was broken and stock taken overnight.")).toBeVisible();
  const thumbnail = staff
    .getByTestId("evidence-image")
    .filter({ has: staff.getByRole("button", { name: "View broken-window.png" }) });
  const seen = thumbnail.locator("img");
  await expect(seen).toBeVisible();
  await expect.poll(() => seen.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await staff.context().close();

  // ---- Signing out ends the session ----
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: "Sign in to see your cover" })).toBeVisible();
  const after = await page.request.get(`/api/portal/${organizationId}/coverages/${link!.split("/").pop()}/certificate`);
  expect(after.status()).toBe(401);
});

test("another policyholder's coverage, claim, certificate and files are not found in the portal", async ({ page }) => {
  const { api, organizationId, policy } = await businessWithPolicy();
  const alice = `alice-${unique()}@example.test`;
  const bob = `bob-${unique()}@example.test`;
  const mine = await buyOverApi(api, policy, alice);
  const bobs = await buyOverApi(api, policy, bob);
  const claim = await api.post("claims", {
    data: { policyId: policy.id, type: "fire", description: "Bob's fire", amount: 50, email: bob },
  });
  expect(claim.status()).toBe(201);
  const bobsClaim = (await claim.json()) as { id: string };

  await page.goto(`/portal/${organizationId}`);
  await signInToPortal(page, alice);
  await expect(page.getByRole("heading", { name: /Your cover with/ })).toBeVisible();
  await expect(page.getByTestId("portal-coverage")).toHaveCount(1);
  await expect(page.getByTestId("portal-claim-row")).toHaveCount(0);

  for (const path of [`coverages/${bobs.id}`, `claims/${bobsClaim.id}`]) {
    const res = await page.goto(`/portal/${organizationId}/${path}`);
    expect(res?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  }
  const cert = await page.request.get(`/api/portal/${organizationId}/coverages/${bobs.id}/certificate`);
  expect(cert.status()).toBe(404);
  expect(cert.headers()["content-type"]).toContain("application/problem+json");
  const own = await page.request.get(`/api/portal/${organizationId}/coverages/${mine.id}/certificate`);
  expect(own.status()).toBe(200);
  expect(own.headers()["content-type"]).toBe("application/pdf");
  // A claim on Bob's coverage is refused and nothing is filed.
  const filed = await page.request.post(`/api/portal/${organizationId}/claims`, {
    headers: { Origin: BASE_URL },
    multipart: { coverageId: bobs.id, type: "fire", description: "not mine", amount: "10" },
  });
  expect(filed.status()).toBe(404);
  const claims = await (await api.get("claims?limit=100")).json();
  expect(claims.data).toHaveLength(1);
  // Another site cannot post with the policyholder's cookie.
  const forged = await page.request.post(`/api/portal/${organizationId}/claims`, {
    headers: { Origin: "https://evil.example" },
    multipart: { coverageId: mine.id, type: "fire", description: "forged", amount: "10" },
  });
  expect(forged.status()).toBe(403);
  // Bad input is a clear 422, not a 500.
  const bad = await page.request.post(`/api/portal/${organizationId}/session`, {
    headers: { Origin: BASE_URL },
    data: { email: "nope", code: "x" },
  });
  expect(bad.status()).toBe(422);
  const body = await bad.json();
  expect(body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["code", "email"]);
  const unknown = await page.goto(`/portal/no-such-business`);
  expect(unknown?.status()).toBe(404);
});

test("the verification page tells a valid, an expired and an unknown certificate apart, without personal data", async ({
  page,
}) => {
  const { account, api, policy } = await businessWithPolicy("test");
  const email = `verify-${unique()}@example.test`;
  const coverage = await buyOverApi(api, policy, email);

  await page.goto(`/verify/${coverage.certificateNumber}`);
  await expect(page.getByText(/valid/i).first()).toBeVisible();
  await expect(page.getByText("Shop Contents")).toBeVisible();
  await expect(page.getByText(/test certificate/i).first()).toBeVisible();
  expect(await page.content()).not.toContain(email);
  await checkPage(page, "verify-valid", page.getByText("Shop Contents"));

  // The test-mode clock: the cover ends now.
  await trpc(account, "coverages.simulateEnd", { coverageId: coverage.id, endsInDays: 0 });
  await page.goto(`/verify/${coverage.certificateNumber}`);
  await expect(page.getByText(/expired/i).first()).toBeVisible();
  expect(await page.content()).not.toContain(email);
  await checkPage(page, "verify-expired", page.getByText(/expired/i).first());

  const res = await page.goto(`/verify/COI-00000000000000000000`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Certificate not found" })).toBeVisible();
});
