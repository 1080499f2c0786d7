// The dashboard shows what the server says the user may do (organizations.me,
// from actor.ts): a MEMBER reads API keys and settings without any control to
// change them; an admin removing someone is told which API keys go with them.
import { expect, test, type Browser, type Page } from "@playwright/test";
import { createKey, joinTeam, ok, tenantWithClients } from "../api/_helpers";
import { BASE_URL, type Account } from "../support/api";
import { checkPage, SCREENS_DIR } from "../support/screens";

const SCREENS = SCREENS_DIR;

async function signedInPage(browser: Browser, account: Account, width = 1280): Promise<Page> {
  const context = await browser.newContext({ baseURL: BASE_URL, viewport: { width, height: width > 500 ? 800 : 844 } });
  await context.addCookies((await account.session.storageState()).cookies);
  return context.newPage();
}

test("a MEMBER sees API keys and settings read-only: no create, edit, regenerate, revoke or save", async ({ browser }) => {
  test.setTimeout(600_000);
  const t = await tenantWithClients();
  const { account } = await joinTeam(t, "MEMBER");

  for (const width of [1280, 390]) {
    const page = await signedInPage(browser, account, width);

    await page.goto("/api-keys");
    await expect(page.getByRole("heading", { name: "API keys", level: 1 })).toBeVisible();
    await expect(page.getByText("Only owners and admins create, change or revoke API keys")).toBeVisible();
    // The owner's keys, readable by every member.
    await expect(page.getByTestId("api-key-row")).toHaveCount(2, { timeout: 60_000 });
    for (const name of ["Create key", "Create your first key", "Edit", "Regenerate", "Revoke"]) {
      await expect(page.getByRole("button", { name, exact: true })).toHaveCount(0);
    }
    // Judged (axe, no sideways scroll) and shot at both widths once.
    if (width === 1280) await checkPage(page, "member-api-keys", page.getByTestId("api-key-row").first());

    await page.goto("/settings");
    await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
    await expect(page.getByText("Only owners and admins change these settings")).toBeVisible();
    await expect(page.getByLabel("API rate limit")).toHaveValue("600", { timeout: 60_000 });
    await expect(page.getByLabel("API rate limit")).toBeDisabled();
    await expect(page.getByLabel("Business name")).toBeDisabled();
    for (const name of ["Save settings", "Save profile"]) {
      await expect(page.getByRole("button", { name })).toHaveCount(0);
    }
    await page.screenshot({ path: `${SCREENS}/member-settings-${width}.png`, fullPage: true });

    // What the page hides, the server refuses anyway.
    await page.goto("/");
    await expect(page.getByRole("link", { name: /Create an API key/ })).toHaveCount(0);
    await page.context().close();
  }
});

test("removing an admin names their active API keys before confirming, and the result says they were revoked", async ({
  browser,
}) => {
  test.setTimeout(600_000);
  const t = await tenantWithClients();
  const joined = await joinTeam(t, "ADMIN");
  await createKey(joined.account, ["read", "write"], "Bayo's laptop");

  const page = await signedInPage(browser, t.account);
  await page.goto("/team");
  const row = page.getByTestId("member-row").filter({ hasText: joined.email });
  await row.getByRole("button", { name: "Remove" }).click({ timeout: 60_000 });
  const confirm = page.getByRole("alertdialog");
  await expect(confirm.getByTestId("keys-to-revoke")).toHaveText("Their API keys will be revoked: “Bayo's laptop”.", {
    timeout: 60_000,
  });
  await checkPage(page, "team-remove-names-keys", confirm.getByTestId("keys-to-revoke"));
  await confirm.getByRole("button", { name: "Remove member" }).click();
  await expect(page.getByText("Revoked their API keys: “Bayo's laptop”")).toBeVisible({ timeout: 60_000 });
  await expect(row).toHaveCount(0, { timeout: 60_000 });

  const keys = await ok(await t.write.get("business/api-keys?limit=100"));
  expect(keys.data.find((k: { name: string }) => k.name === "Bayo's laptop").status).toBe("revoked");
  await page.context().close();
});
