// The pages anyone can open — the API reference (guides first), the 404 page, sign-in,
// sign-up, an invitation link — and what every page carries: the icons. Each
// passes axe (serious + critical) at 1280 and 390 px. Also the toast a form
// shows after saving: where it appears, and that it is readable (axe while it
// is on screen). Screens in test-results/screens.
import path from "node:path";
import { expect, test, type Page, type Request, type Response } from "@playwright/test";
import { latestInvitationLink } from "../api/_helpers";
import { BASE_URL, signUp, trpc, unique } from "../support/api";
import { FIRST_LOAD, SCREENS_DIR, axeViolations, checkPage, signedInPage } from "../support/screens";

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Requests the page makes to any other origin (fonts, telemetry, CDNs…). */
function externalRequests(page: Page): string[] {
  const out: string[] = [];
  page.on("request", (r: Request) => {
    const url = r.url();
    if (!url.startsWith(BASE_URL) && !url.startsWith("data:") && !url.startsWith("blob:")) out.push(url);
  });
  return out;
}

/** Icon-like answers of 400 and above while the page loads. */
function failedIconResponses(page: Page): string[] {
  const out: string[] = [];
  page.on("response", (r: Response) => {
    if (r.status() >= 400 && /favicon|icon|manifest/i.test(new URL(r.url()).pathname)) out.push(`${r.status()} ${r.url()}`);
  });
  return out;
}

const GUIDES = ["Quick start", "Receiving webhooks", "Test mode", "Errors and idempotency", "Pagination", "The typed client"];

test("/docs: opens on the guides, then the reference rendered on the server from the OpenAPI document, offline, accessible at both widths", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const external = externalRequests(page);
  await page.goto("/docs");

  // It opens on the Quick start guide, in view without scrolling.
  const title = page.getByRole("heading", { name: "Coverdesk API", level: 1 });
  await expect(title).toBeVisible({ timeout: FIRST_LOAD });
  const quickStart = page.getByRole("heading", { name: "Quick start", level: 2 });
  await expect(quickStart).toBeInViewport();
  await expect(page.locator("#quick-start")).toContainText("API keys → Create key");
  await expect(page.locator("#quick-start")).toContainText("npm run bootstrap");
  await expect(page.locator("#quick-start")).toContainText("/payments/initialize");

  // The left navigation: the guides first, then the reference; each link reaches its section.
  const nav = page.getByRole("navigation", { name: "Documentation", exact: true });
  await expect(nav).toBeVisible();
  const navText = (await nav.innerText()).replace(/\s+/g, " ");
  expect(navText.indexOf("Quick start")).toBeLessThan(navText.indexOf("Create a policy"));
  for (const guide of GUIDES) {
    await nav.getByRole("link", { name: guide, exact: true }).click();
    const heading = page.getByRole("heading", { name: guide, level: 2 });
    await expect(heading).toBeInViewport();
  }
  await expect(page.locator("#webhooks")).toContainText("X-Coverdesk-Signature");
  await expect(page.locator("#webhooks")).toContainText("webhook-signature");
  await expect(page.locator("#webhooks")).toContainText("npm run listen");
  await expect(page.locator("#test-mode")).toContainText("4000 0000 0000 0002");
  await expect(page.locator("#errors")).toContainText("Idempotent-Replayed");
  await expect(page.locator("#errors")).toContainText("idempotency_in_progress");
  await expect(page.locator("#pagination")).toContainText("nextCursor");

  // A known operation, with its method, path, permission, body fields, responses and a curl example.
  await nav.getByRole("link", { name: "Create a policy" }).click();
  await expect(page).toHaveURL(/#op-createPolicy$/);
  const op = page.locator("#op-createPolicy");
  await expect(op.getByRole("heading", { name: "Create a policy", level: 3 })).toBeInViewport();
  await expect(op).toContainText("POST");
  await expect(op).toContainText("/business/policies");
  await expect(op).toContainText("API key permission: write");
  const body = op.getByRole("region", { name: /request body application\/json/ });
  for (const field of ["name", "type", "duration", "price", "benefits"]) {
    await expect(body.locator("code", { hasText: new RegExp(`^${field}$`) })).toHaveCount(1);
  }
  await expect(body.locator("li").filter({ has: page.locator("code", { hasText: /^price$/ }) })).toContainText("required");
  await expect(body).toContainText("yearly");
  await expect(op.getByRole("row", { name: /201 Success Policy/ })).toBeVisible();
  await expect(op.getByLabel("Create a policy: curl example")).toContainText("-X POST");

  // The Coverdesk header sits above everything, overlapping nothing, at both widths; nothing scrolls sideways.
  const header = page.locator("header").filter({ hasText: "API reference" }).first();
  await expect(header).toContainText("Coverdesk");
  const back = header.getByRole("link", { name: "Back to dashboard" });
  await expect(back).toHaveAttribute("href", "/");
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width < 640 ? 844 : 800 });
    await page.evaluate(() => window.scrollTo(0, 0));
    const headerBox = (await header.boundingBox())!;
    expect(headerBox.y).toBe(0);
    expect((await title.boundingBox())!.y, `title under the header at ${width}`).toBeGreaterThanOrEqual(
      headerBox.y + headerBox.height,
    );
    const label = header.getByText("API reference", { exact: true });
    if (await label.isVisible())
      expect(overlaps((await label.boundingBox())!, (await back.boundingBox())!), `header items at ${width}`).toBe(false);
    if (width === 390) {
      // The menu is behind a button on phones; opened, it lists the guides and sits below the header.
      await expect(nav).toBeHidden();
      const menu = page.getByRole("navigation", { name: "Documentation contents" });
      await expect(menu).toBeHidden();
      await page.getByText("Contents", { exact: true }).click();
      await expect(menu.getByRole("link", { name: "Quick start" })).toBeVisible();
      expect((await menu.boundingBox())!.y).toBeGreaterThanOrEqual(headerBox.height);
      await menu.getByRole("link", { name: "Create a policy" }).click();
      await expect(op.getByRole("heading", { name: "Create a policy", level: 3 })).toBeInViewport();
      const opBox = (await op.getByRole("heading", { name: "Create a policy", level: 3 }).boundingBox())!;
      expect(opBox.y, "the anchored heading below the sticky header").toBeGreaterThanOrEqual(
        (await header.boundingBox())!.height,
      );
      await page.getByText("Contents", { exact: true }).click();
    }
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth, `sideways scroll at ${width}`).toBeLessThanOrEqual(innerWidth);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.evaluate(() => window.scrollTo(0, 0));

  // Rendered on the server: no script of the old reference, a small page.
  expect(await page.locator("script[src*='scalar']").count()).toBe(0);

  await checkPage(page, "docs", title);
  expect(external, "requests to other origins").toEqual([]);

  // The header's link leads to the dashboard (as a signed-in member sees it).
  const owner = await signUp({ name: "Docs Reader" });
  const member = await signedInPage(browser, owner);
  await member.goto("/docs");
  await member.getByRole("link", { name: "Back to dashboard" }).click();
  await expect(member).toHaveURL(`${BASE_URL}/`, { timeout: FIRST_LOAD });
  await expect(member.getByRole("heading", { name: "Welcome, Docs", level: 1 })).toBeVisible({ timeout: FIRST_LOAD });
  await member.context().close();
});

test("an unknown address answers 404 with the branded page, a way back to the dashboard, accessible", async ({ page }) => {
  const res = await page.goto(`/no-such-page-${unique()}`);
  expect(res?.status()).toBe(404);
  const heading = page.getByRole("heading", { name: "Page not found", level: 1 });
  await expect(heading).toBeVisible({ timeout: FIRST_LOAD });
  await expect(page.getByRole("main")).toContainText("Coverdesk");
  await expect(page.getByRole("link", { name: "Go to the dashboard" })).toHaveAttribute("href", "/");
  await expect(page).toHaveTitle(/Coverdesk/);
  await checkPage(page, "not-found", heading);
});

test("every page links the brand icons, and each answers 200 with an image", async ({ page }) => {
  const failed = failedIconResponses(page);
  await page.goto("/sign-in");
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible({ timeout: FIRST_LOAD });

  const links = await page
    .locator('head link[rel~="icon"], head link[rel="apple-touch-icon"]')
    .evaluateAll((els) => els.map((el) => ({ rel: el.getAttribute("rel"), href: el.getAttribute("href") ?? "" })));
  const hrefs = links.map((l) => l.href.split("?")[0] ?? "");
  expect(hrefs).toEqual(expect.arrayContaining(["/favicon.ico", "/icon.svg", "/apple-touch-icon.png"]));

  for (const href of new Set(["/favicon.ico", ...hrefs])) {
    const res = await page.request.get(href);
    expect(res.status(), href).toBe(200);
    expect(res.headers()["content-type"], href).toMatch(/^image\//);
    expect((await res.body()).length, href).toBeGreaterThan(100);
  }
  // favicon.ico really is an ICO (reserved 0, type 1), not a PNG renamed.
  const ico = await (await page.request.get("/favicon.ico")).body();
  expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, 3]);

  // The web manifest and the icons it lists.
  const manifestHref = await page.locator('head link[rel="manifest"]').getAttribute("href");
  expect(manifestHref).toBe("/site.webmanifest");
  const manifest = await (await page.request.get(manifestHref!)).json();
  expect(manifest.name).toBe("Coverdesk");
  for (const icon of manifest.icons as { src: string }[]) {
    const res = await page.request.get(icon.src);
    expect(res.status(), icon.src).toBe(200);
    expect(res.headers()["content-type"], icon.src).toBe("image/png");
  }

  // Other pages load without any icon request failing either.
  await page.goto("/docs");
  await expect(page.getByRole("heading", { name: "Coverdesk API", level: 1 })).toBeVisible({ timeout: FIRST_LOAD });
  await page.goto(`/no-such-page-${unique()}`);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  expect(failed, "icon requests that failed").toEqual([]);
});

test("sign-in and sign-up pass axe at both widths", async ({ page }) => {
  await page.goto("/sign-in");
  await checkPage(page, "sign-in", page.getByRole("heading", { name: "Sign in", level: 1 }));
  // With the form's own errors showing too.
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByText("Enter your password")).toBeVisible();
  expect(await axeViolations(page), "sign-in with errors").toEqual([]);

  await page.goto("/sign-up");
  await checkPage(page, "sign-up", page.getByRole("heading", { name: "Create your account", level: 1 }));
  await page.getByRole("button", { name: "Create account", exact: true }).click();
  await expect(page.getByText("Enter your business name")).toBeVisible();
  expect(await axeViolations(page), "sign-up with errors").toEqual([]);
});

test("an invitation link, unknown or pending, passes axe at both widths", async ({ page }) => {
  await page.goto(`/invite/not-a-real-token-${unique()}`);
  await checkPage(page, "invite-unknown", page.getByRole("heading", { name: "This invitation link is not valid", level: 1 }));

  const orgName = `Invite Check ${unique()}`;
  const owner = await signUp({ organizationName: orgName, name: "Amara Eze" });
  const email = `invitee-${unique()}@example.test`;
  await trpc(owner, "team.invite", { email, role: "MEMBER" });
  const link = await latestInvitationLink(email);

  await page.goto(new URL(link).pathname);
  const heading = page.getByRole("heading", { name: `Join ${orgName}`, level: 1 });
  await expect(heading).toBeVisible({ timeout: FIRST_LOAD });
  await expect(page.getByRole("main")).toContainText(`Amara Eze invited ${email}`);
  await expect(page.getByRole("button", { name: "Create account and join" })).toBeVisible();
  await checkPage(page, "invite-pending", heading);
});

test("a saved form's success toast shows at the bottom, clear of the page header and the Save button, and passes axe", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const owner = await signUp({ organizationName: `Toast Test ${unique()}` });

  for (const width of [1280, 390]) {
    const page = await signedInPage(browser, owner, width);
    const viewport = page.viewportSize()!;
    await page.goto("/settings");
    const heading = page.getByRole("heading", { name: "Settings", level: 1 });
    await expect(heading).toBeVisible({ timeout: FIRST_LOAD });

    const name = page.getByLabel("Business name");
    await expect(name).toBeEnabled();
    const newName = `Toast Test ${width} ${unique()}`;
    await name.fill(newName);
    const save = page.getByRole("button", { name: "Save profile" });
    await save.scrollIntoViewIfNeeded();
    await save.click();

    const toast = page.locator('[data-sonner-toast][data-type="success"]').filter({ hasText: "Profile saved" });
    await expect(toast).toBeVisible();
    await expect(toast).toHaveAttribute("data-mounted", "true");
    // Sonner slides it in over 400 ms; measure and judge it where it rests. The pointer
    // on it holds it there (sonner pauses its 4 s timer) while axe runs.
    await page.waitForTimeout(600);
    await toast.hover();
    const org = await trpc<{ name: string }>(owner, "organizations.current", undefined, "query");
    expect(org.name).toBe(newName);

    const toastBox = (await toast.boundingBox())!;
    // The page header block (title, description and its actions, if any) and the button just pressed.
    const headerBox = (await heading.locator("xpath=../..").boundingBox())!;
    const saveBox = (await save.boundingBox())!;

    // At the bottom of the screen, whole.
    expect(toastBox.y + toastBox.height).toBeLessThanOrEqual(viewport.height);
    expect(toastBox.y).toBeGreaterThan(viewport.height / 2);
    if (width === 1280) {
      expect(toastBox.x, "on the right").toBeGreaterThan(viewport.width / 2);
      expect(overlaps(toastBox, saveBox), "toast over the Save button").toBe(false);
      expect(overlaps(toastBox, headerBox), "toast over the page header").toBe(false);
    } else {
      // Phones: across the width, with a margin.
      expect(toastBox.width).toBeGreaterThan(viewport.width * 0.85);
      expect(toastBox.x).toBeGreaterThanOrEqual(0);
      expect(toastBox.x + toastBox.width).toBeLessThanOrEqual(viewport.width);
      expect(overlaps(toastBox, headerBox), "toast over the page header").toBe(false);
    }

    // Readable: the toast's own colours pass AA (axe checks them while it is on screen).
    const colors = await toast.evaluate((el) => {
      const s = getComputedStyle(el);
      return { color: s.color, background: s.backgroundColor };
    });
    expect(colors).toEqual({ color: "rgb(6, 95, 70)", background: "rgb(236, 253, 245)" });
    expect(await axeViolations(page), `settings with the toast at ${width} px`).toEqual([]);
    await page.screenshot({ path: path.join(SCREENS_DIR, `toast-success-${width}.png`) });
    await page.context().close();
  }
});
