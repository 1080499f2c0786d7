// Every page a spec visits is judged the same way at 1280 and 390 px: nothing
// scrolls sideways, axe-core finds no serious or critical violation, and a
// full-page screenshot is written to test-results/screens/<name>-<width>.png
// (looked at before an issue is resolved). `npm test` skips the pictures
// (E2E_SCREENSHOTS=0, set by scripts/test.mjs unless already set): nothing
// there looks at them, and they were a tenth of the browser specs' time.
import fs from "node:fs/promises";
import path from "node:path";
import axeCore from "axe-core";
import { expect, type Browser, type Locator, type Page, type Response } from "@playwright/test";
import { BASE_URL, type Account } from "./api";

export const SCREENS_DIR = process.env.E2E_SCREENS_DIR ?? path.join("test-results", "screens");
export const WIDTHS = [1280, 390] as const;
const SCREENSHOTS = process.env.E2E_SCREENSHOTS !== "0";
/** A page compiled or loaded for the first time on a busy 2-core machine. */
export const FIRST_LOAD = 60_000;

/** A browser page signed in as the account (its session cookie copied in). */
export async function signedInPage(browser: Browser, account: Account, width = 1280): Promise<Page> {
  const context = await browser.newContext({
    baseURL: BASE_URL,
    viewport: { width, height: width < 640 ? 844 : 800 },
    acceptDownloads: true,
  });
  await context.addCookies((await account.session.storageState()).cookies);
  return interactive(await context.newPage());
}

/**
 * The page, with goto and reload that return once the app has hydrated (`<html data-hydrated>`, set by
 * src/trpc/react.tsx). Pages open with their data rendered on the server, so what a spec waits for can be
 * on screen before React listens: a click or a keystroke then would be lost.
 */
export function interactive(page: Page): Page {
  const hydrated = async (response: Response | null) => {
    if (response?.ok() && (response.headers()["content-type"] ?? "").startsWith("text/html")) {
      await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: FIRST_LOAD });
    }
    return response;
  };
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (...args) => hydrated(await goto(...args));
  page.reload = async (...args) => hydrated(await reload(...args));
  return page;
}

const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/**
 * The serious and critical axe violations on the page as it is now, one line each.
 *
 * axe-core runs in the page itself, injected once per document (a check after a client-side change
 * reuses it): @axe-core/playwright injected it on every call and finished each run in a new page,
 * ~0.5 s a check against ~0.03 s, and the browser specs make some 230 checks. Frames are not entered:
 * the app's only frames show a stored file (an image or a PDF), not its own markup.
 */
export async function axeViolations(page: Page, opts: { toasts?: boolean } = {}): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) {
    await page.evaluate(axeCore.source);
  }
  // A toast can start fading out while axe runs (its timer is its own): checkPage leaves toasts to
  // the spec that judges one on purpose, at rest (public-pages.spec.ts).
  const exclude = opts.toasts === false ? [["[data-sonner-toaster]"]] : [];
  const violations = await page.evaluate(
    async ({ tags, exclude }) => {
      type Axe = { run: (context: unknown, options: unknown) => Promise<{ violations: AxeViolation[] }> };
      type AxeViolation = { id: string; impact?: string | null; help: string; nodes: { target: string[] }[] };
      const axe = (window as unknown as { axe: Axe }).axe;
      // Colours are judged at rest: a button fading back from its loading state (a CSS transition)
      // measured half-way fails contrast. Finite animations finish first (a second at most).
      const moving = document
        .getAnimations()
        .filter((a) => a.playState === "running" && a.effect?.getComputedTiming().iterations !== Infinity);
      await Promise.race([
        Promise.all(moving.map((a) => a.finished.catch(() => undefined))),
        new Promise((r) => setTimeout(r, 1000)),
      ]);
      // A button in its loading state (disabled, paler, a spinner) is about to change: waited for, a second
      // at most, so axe does not judge it half-way (an error message shows a render before its form's button
      // comes back).
      for (let waited = 0; document.querySelector("button:disabled .animate-spin") && waited < 1000; waited += 50) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const results = await axe.run(
        { include: [["html"]], exclude },
        { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"], iframes: false },
      );
      return results.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.map((n) => n.target.join(" ")),
      }));
    },
    { tags: AXE_TAGS, exclude },
  );
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.targets.slice(0, 5).join(", ")}`);
}

/**
 * Checks the page at both widths: `ready` must be visible, no horizontal
 * scroll, no serious/critical axe violation; writes the screenshots. Leaves
 * the page at 1280 px.
 */
export async function checkPage(page: Page, name: string, ready: Locator, opts: { axe?: boolean } = {}) {
  if (SCREENSHOTS) await fs.mkdir(SCREENS_DIR, { recursive: true });
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width < 640 ? 844 : 800 });
    await expect(ready).toBeVisible({ timeout: FIRST_LOAD });
    // Charts and responsive lists settle on the next frames.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))));
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth, `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(innerWidth);
    if (opts.axe !== false) {
      // Next streams a dynamic page's metadata after its content: the <title> can come a moment after `ready`
      // (one CI run's axe ran in that moment: document-title). It must come; then the page is judged.
      await expect(page, `${name}: its <title>`).toHaveTitle(/\S/, { timeout: FIRST_LOAD });
      expect(await axeViolations(page, { toasts: false }), `${name} at ${width} px: accessibility`).toEqual([]);
    }
    if (!SCREENSHOTS) continue;
    // The picture starts at the top (sticky headers in place); toasts (already judged by axe) would hide the page.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({
      path: path.join(SCREENS_DIR, `${name}-${width}.png`),
      fullPage: true,
      style: "[data-sonner-toaster] { display: none !important; }",
    });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/**
 * The elements inside `scope` that are cut off sideways: content wider than a
 * box that clips or scrolls it, or sticking out of the scope. Text meant for
 * screen readers only (1 px, clipped) is not counted.
 */
export async function clippedElements(scope: Locator): Promise<string[]> {
  return scope.evaluate((root) => {
    const out: string[] = [];
    const srOnly = (el: HTMLElement) => {
      const style = getComputedStyle(el);
      return el.closest(".sr-only") !== null || (style.position === "absolute" && el.clientWidth <= 1);
    };
    for (const el of Array.from(root.querySelectorAll<HTMLElement>("*"))) {
      if (!el.offsetParent && getComputedStyle(el).position !== "fixed") continue;
      if (srOnly(el)) continue;
      const style = getComputedStyle(el);
      const clips = style.overflowX === "hidden" || style.overflowX === "clip" || style.textOverflow === "ellipsis";
      if (el.scrollWidth > el.clientWidth + 1 && (clips || style.overflowX === "auto" || style.overflowX === "scroll")) {
        out.push(`${el.tagName.toLowerCase()}.${el.className}: ${(el.textContent ?? "").trim().slice(0, 40)}`);
      }
    }
    const box = root.getBoundingClientRect();
    for (const el of Array.from(root.querySelectorAll<HTMLElement>("td, th, li, dd, dt, span, a, p"))) {
      if (srOnly(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.width > 0 && (r.right > box.right + 1 || r.left < box.left - 1)) {
        out.push(`${el.tagName.toLowerCase()} outside its list: ${(el.textContent ?? "").trim().slice(0, 40)}`);
      }
    }
    return out;
  });
}
