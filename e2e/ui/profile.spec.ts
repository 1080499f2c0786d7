// The user's own account in the browser: their name (a blank one refused
// under the field), the devices signed in — this one marked, another signed
// out after a confirmation, which ends that device's session at once — and
// the sign-in history (a refused password kept; a new device emailed).
import { expect, request as playwrightRequest, test } from "@playwright/test";
import { waitForMailbox } from "../api/_mail";
import { BASE_URL, signUp, trpcRaw } from "../support/api";
import { checkPage, FIRST_LOAD, signedInPage } from "../support/screens";

const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

test("rename yourself, see your devices, sign another one out", async ({ browser }) => {
  const account = await signUp({ name: "Owner" });
  // A second device: the same account signed in from a phone.
  const phone = await playwrightRequest.newContext({
    baseURL: BASE_URL,
    extraHTTPHeaders: { Origin: BASE_URL, "User-Agent": IPHONE },
  });
  // A wrong password first (the history keeps it), then the right one: a new device, so the owner is emailed.
  expect((await phone.post("/api/auth/sign-in/email", { data: { email: account.email, password: "not-the-password" } })).status()).toBe(
    401,
  );
  expect((await phone.post("/api/auth/sign-in/email", { data: { email: account.email, password: account.password } })).status()).toBe(
    200,
  );
  const [told] = await waitForMailbox(account.email, (m) => m.some((x) => x.subject === "New sign-in to your Coverdesk account"), "the new-device email");
  expect(told!.text).toContain("Safari 17 on iOS");
  const phoneAccount = { ...account, session: phone };
  expect((await trpcRaw(phoneAccount, "profile.get", undefined, "query")).status()).toBe(200);

  const page = await signedInPage(browser, account);
  await page.goto("/account/profile");
  const devices = page.getByRole("list", { name: "Devices" });
  await expect(devices.getByRole("listitem")).toHaveCount(2, { timeout: FIRST_LOAD });
  const iphone = devices.getByRole("listitem").filter({ hasText: "Safari 17 on iOS" });
  await expect(iphone).toBeVisible();
  await expect(devices.getByRole("listitem").filter({ hasText: "This device" })).toHaveCount(1);
  const history = page.getByRole("list", { name: "Sign-ins" });
  await expect(history.getByRole("listitem").filter({ hasText: "Wrong password" })).toHaveCount(1);
  await expect(history.getByRole("listitem").filter({ hasText: "Safari 17 on iOS" }).filter({ hasText: "Signed in" })).toHaveCount(1);
  await checkPage(page, "profile", page.getByRole("heading", { name: "Your profile", level: 1 }));

  // The name: a blank one is refused under the field; a real one is saved and greets on the home page.
  const name = page.getByLabel("Name", { exact: true });
  await name.fill("   ");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.locator("#profile-name-error")).toHaveText("Enter your name");
  await name.fill("Chiamaka Eze");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByText("Name saved")).toBeVisible();

  // Sign the phone out: asked first; then its session is refused at once.
  await iphone.getByRole("button", { name: "Sign out device" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Sign this device out?" });
  await expect(confirm).toContainText("Safari 17 on iOS");
  await confirm.getByRole("button", { name: "Sign out" }).click();
  await expect(devices.getByRole("listitem")).toHaveCount(1);
  expect((await trpcRaw(phoneAccount, "profile.get", undefined, "query")).status()).toBe(401);

  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Welcome, Chiamaka" })).toBeVisible({ timeout: FIRST_LOAD });
  await phone.dispose();
  await page.context().close();
});
