// Content-Security-Policy on every kind of HTML page (src/proxy.ts): each
// answer carries the policy with a nonce that is new on every load, scripts
// only by that nonce, `frame-ancestors 'none'`; and every page — public, the
// dashboard, admin, /docs, the hosted checkout, the portal, /verify, 404 —
// loads, hydrates and runs under it without a single violation (console
// messages and `securitypolicyviolation` events both count) or a request to
// another origin.
import { expect, test, type BrowserContext, type Locator, type Page, type Response } from "@playwright/test";
import { waitForMailbox } from "../api/_mail";
import { BASE_URL, createKey, restClient, signInPlatformAdmin, signUp, trpc, unique } from "../support/api";
import { FIRST_LOAD, signedInPage } from "../support/screens";

/**
 * Collects every CSP violation in the context's pages, and every request to
 * another origin. The listener is installed before any page script runs.
 */
async function watch(context: BrowserContext): Promise<{ violations: string[]; external: string[] }> {
  const violations: string[] = [];
  const external: string[] = [];
  await context.exposeBinding("__cspViolation", (_source, line: string) => void violations.push(line));
  await context.addInitScript(() => {
    document.addEventListener(
      "securitypolicyviolation",
      (e) => {
        const report = (window as unknown as { __cspViolation: (line: string) => void }).__cspViolation;
        void report(`${e.effectiveDirective} refused ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber} ${e.sample})`);
      },
      true,
    );
  });
  context.on("console", (m) => {
    if (m.text().includes("Content Security Policy")) violations.push(`console ${m.type()}: ${m.text()}`);
  });
  context.on("request", (r) => {
    const url = r.url();
    if (!url.startsWith(`${BASE_URL}/`) && !url.startsWith("data:") && !url.startsWith("blob:")) external.push(url);
  });
  return { violations, external };
}

const directive = (policy: string, name: string) =>
  policy
    .split(";")
    .map((d) => d.trim().split(/\s+/))
    .find(([n]) => n === name)
    ?.slice(1);

/** The page's policy: present, nonce-based, strict; returns its nonce. */
function nonceOf(res: Response | null): string {
  expect(res, "a document answer").toBeTruthy();
  const where = new URL(res!.url()).pathname;
  const policy = res!.headers()["content-security-policy"];
  expect(policy, `${where}: Content-Security-Policy header`).toBeTruthy();
  const nonce = /'nonce-([A-Za-z0-9+/_-]+={0,2})'/.exec(policy!)?.[1];
  expect(nonce, `${where}: a nonce in ${policy}`).toBeTruthy();
  expect(nonce!.length, "at least 128 bits").toBeGreaterThanOrEqual(22);
  // next start: no eval, no inline script without the nonce, nothing from other hosts.
  expect(directive(policy!, "script-src"), where).toEqual(["'self'", `'nonce-${nonce}'`, "'strict-dynamic'"]);
  expect(directive(policy!, "default-src"), where).toEqual(["'self'"]);
  expect(directive(policy!, "object-src"), where).toEqual(["'none'"]);
  expect(directive(policy!, "base-uri"), where).toEqual(["'self'"]);
  expect(directive(policy!, "connect-src"), where).toEqual(["'self'"]);
  expect(directive(policy!, "frame-ancestors"), where).toEqual(["'none'"]);
  expect(res!.headers()["x-frame-options"], where).toBe("DENY");
  return nonce!;
}

/** True once React has hydrated the page (it marks the DOM nodes it owns): its scripts ran. */
const hydrated = (page: Page) =>
  expect
    .poll(() => page.evaluate(() => Object.keys(document.body).some((k) => k.startsWith("__react"))), {
      message: "React hydrated the page",
      timeout: FIRST_LOAD,
    })
    .toBe(true);

/** Opens a page; asserts its policy, that it ran (hydrated, `ready` shown) and that nothing was refused. */
async function visit(
  page: Page,
  seen: { violations: string[]; external: string[] },
  path: string,
  ready: (page: Page) => Locator,
  status = 200,
): Promise<string> {
  const res = await page.goto(path);
  expect(res?.status(), path).toBe(status);
  const nonce = nonceOf(res);
  // Next put the nonce on its own scripts (the DOM hides the attribute; the property keeps it).
  const nonces = await page.evaluate(() => Array.from(document.scripts, (s) => s.nonce));
  expect(nonces.filter((n) => n === nonce).length, `${path}: scripts carrying the nonce`).toBeGreaterThan(0);
  await expect(ready(page)).toBeVisible({ timeout: FIRST_LOAD });
  await hydrated(page);
  await page.waitForLoadState("networkidle");
  expect(seen.violations, `${path}: CSP violations`).toEqual([]);
  expect(seen.external, `${path}: requests to other origins`).toEqual([]);
  return nonce;
}

const h1 = (name?: string | RegExp) => (page: Page) => page.getByRole("heading", { level: 1, ...(name ? { name } : {}) }).first();

test("public pages: a fresh nonce per load, frame-ancestors 'none', no violation on sign-in, sign-up, 404, /docs", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const seen = await watch(page.context());

  const first = await visit(page, seen, "/sign-in", (p) => p.getByRole("button", { name: "Sign in" }));
  const second = await visit(page, seen, "/sign-in", (p) => p.getByRole("button", { name: "Sign in" }));
  expect(second, "a new nonce on every load").not.toBe(first);

  // The form works: its request goes out and the refusal comes back.
  await page.getByLabel("Email").fill(`nobody-${unique()}@example.test`);
  await page.getByLabel("Password").fill("correct-horse-battery");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Wrong email or password.")).toBeVisible();

  await visit(page, seen, "/sign-up", (p) => p.getByRole("button", { name: "Create account" }));
  await visit(page, seen, "/forgot-password", h1());
  await visit(page, seen, `/invite/${unique()}`, h1());
  await visit(page, seen, `/no-such-page-${unique()}`, h1("Page not found"), 404);
  // The not-found page the HTTP server renders for a malformed path.
  await visit(page, seen, "/%E0%A4%A", h1("Page not found"), 404);

  // The API reference: server-rendered, offline, under the policy; its menu works by links alone.
  await visit(page, seen, "/docs", (p) => p.getByRole("heading", { name: "Coverdesk API", level: 1 }));
  const nav = page.getByRole("navigation", { name: "Documentation", exact: true });
  await nav.getByRole("link", { name: "Create an organization" }).click();
  await expect(page).toHaveURL(/#op-createOrganization$/);
  await page.waitForLoadState("networkidle");
  expect(seen.violations, "/docs after navigating in the reference").toEqual([]);
  expect(seen.external).toEqual([]);
});

test("the dashboard and admin: every page runs under the policy, client navigation and dialogs included", async ({ browser }) => {
  test.setTimeout(180_000);
  const account = await signUp({ name: "Kemi Ade" });
  const policy = await trpc<{ id: string }>(account, "policies.create", {
    name: "Stock Cover",
    type: "property",
    duration: "yearly",
    price: "2500",
  });
  const page = await signedInPage(browser, account);
  const seen = await watch(page.context());

  await visit(page, seen, "/", h1("Welcome, Kemi"));
  // A client-side navigation: the next page's chunks load by 'strict-dynamic'.
  await page.getByRole("link", { name: "Policies", exact: true }).click();
  await expect(page).toHaveURL(/\/policies$/);
  await expect(h1()(page)).toBeVisible();

  await visit(page, seen, `/policies/${policy.id}`, h1("Stock Cover"));
  // A Radix dialog (its scroll lock inserts a <style>).
  await page.getByRole("button", { name: "Payment for one customer" }).click();
  await expect(page.getByRole("dialog", { name: "Payment for one customer" })).toBeVisible();
  await page.keyboard.press("Escape");

  // Charts (recharts), upload dropzones (uploadthing's hook), forms, tables.
  for (const path of ["/analytics", "/documents", "/kyb", "/policies/new", "/payments", "/api-keys", "/settings"]) {
    await visit(page, seen, path, h1());
  }
  await page.context().close();

  const admin = await signedInPage(browser, await signInPlatformAdmin());
  const adminSeen = await watch(admin.context());
  for (const path of ["/admin", "/admin/kyb"]) await visit(admin, adminSeen, path, h1());
  await admin.context().close();
});

test("the hosted checkout, /verify and the portal run under the policy", async ({ page }) => {
  test.setTimeout(180_000);
  const account = await signUp({ organizationName: `CSP Mutual ${unique()}` });
  const key = await createKey(account);
  const api = await restClient(key.key);
  const created = await api.post("business/policies", {
    data: { name: "Shop Contents", type: "property", duration: "monthly", price: "1500", coverage: "Stock" },
  });
  expect(created.status()).toBe(201);
  const policy = (await created.json()) as { id: string };
  const customer = `holder-${unique()}@example.test`;
  const init = await api.post("payments/initialize", { data: { amount: 1500, policyId: policy.id, email: customer } });
  expect(init.status()).toBe(201);
  const { authorizationUrl, reference } = (await init.json()) as { authorizationUrl: string; reference: string };
  const seen = await watch(page.context());

  // ---- Checkout: the card form, paid in the browser ----
  await visit(page, seen, new URL(authorizationUrl).pathname, (p) => p.getByRole("button", { name: "Pay now" }));
  await page.getByLabel("Card number").fill("4242424242424242");
  await page.getByLabel("Expiry").fill("12/30");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Pay now" }).click();
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
  expect(seen.violations, "checkout after paying").toEqual([]);

  // ---- The certificate's public verification page ----
  const verified = (await (await api.get(`payments/verify/${reference}`)).json()) as {
    coverage: { id: string; certificateNumber: string };
  };
  await visit(page, seen, `/verify/${verified.coverage.certificateNumber}`, (p) => p.getByTestId("verify-status"));

  // ---- The portal: signed in with the emailed code, then the coverage ----
  await visit(page, seen, `/portal/${key.organizationId}`, (p) => p.getByLabel("Email address"));
  await page.getByLabel("Email address").fill(customer);
  await page.getByRole("button", { name: "Email me a code" }).click();
  await expect(page.getByLabel("Sign-in code")).toBeVisible();
  const mails = await waitForMailbox(customer, (m) => m.some((x) => /sign-in code/.test(x.subject)), "a sign-in code");
  const code = /(\d{6}) is your/.exec(mails.find((x) => /sign-in code/.test(x.subject))!.subject)![1]!;
  await page.getByLabel("Sign-in code").fill(code);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("portal-coverage")).toHaveCount(1);
  await visit(page, seen, `/portal/${key.organizationId}/coverages/${verified.coverage.id}`, h1("Shop Contents"));
  await visit(page, seen, `/portal/${key.organizationId}/payments/${reference}`, h1("Receipt"));
});
