// One source of field-error wording: the same bad value gets the same human
// sentence in the dashboard's form (under the field) and in the REST API's
// `errors[]`, because both come from the schemas and src/lib/messages.ts.
import { expect, test, type Locator } from "@playwright/test";
import { tenantWithClients } from "../api/_helpers";
import { problem } from "../support/api";
import { FIRST_LOAD, signedInPage } from "../support/screens";

/** The message the REST API gives for one field of a refused body. */
async function apiMessage(res: Parameters<typeof problem>[0], path: string): Promise<string> {
  const body = await problem(res, 422, "validation_failed");
  const found = (body.errors ?? []).find((e) => e.path === path);
  expect(found, `errors[] names ${path}: ${JSON.stringify(body.errors)}`).toBeTruthy();
  return found!.message;
}

/** The error shown under a labelled field of a form. */
const fieldError = (scope: Locator, id: string) => scope.locator(`[id="${id}-error"]`);

test("the form and the API say the same sentence for the same mistake", async ({ browser }) => {
  test.setTimeout(180_000);
  const t = await tenantWithClients();
  const page = await signedInPage(browser, t.account);

  // A webhook URL that is not http(s).
  const urlMessage = await apiMessage(
    await t.write.post("business/webhooks", { data: { url: "ftp://example.com/hooks", events: ["claim.submitted"] } }),
    "url",
  );
  expect(urlMessage).toBe("Enter a web address starting with http:// or https://");
  await page.goto("/webhooks");
  await page.getByRole("button", { name: "Add endpoint" }).click({ timeout: FIRST_LOAD });
  const webhook = page.getByRole("dialog", { name: "Add a webhook endpoint" });
  await webhook.getByLabel("Endpoint URL").fill("ftp://example.com/hooks");
  await webhook.getByRole("button", { name: "Add endpoint" }).click();
  await expect(fieldError(webhook, "webhook-url")).toHaveText(urlMessage);

  // An invitation to something that is not an email address.
  const emailMessage = await apiMessage(
    await t.write.post(`organizations/${t.organizationId}/invite`, { data: { email: "not-an-email", role: "MEMBER" } }),
    "email",
  );
  expect(emailMessage).toBe("Enter a valid email address, like name@example.com");
  await page.goto("/team");
  await page.getByRole("button", { name: "Invite", exact: true }).click({ timeout: FIRST_LOAD });
  const invite = page.getByRole("dialog");
  await invite.getByLabel("Email").fill("not-an-email");
  await invite.getByRole("button", { name: "Send invitation" }).click();
  await expect(fieldError(invite, "invite-email")).toHaveText(emailMessage);

  // A policy without a name.
  const nameMessage = await apiMessage(
    await t.write.post("business/policies", { data: { name: " ", type: "home", duration: "yearly", price: "10.00" } }),
    "name",
  );
  expect(nameMessage).toBe("Enter a name");
  await page.goto("/policies/new");
  await page.getByRole("button", { name: "Create policy" }).click({ timeout: FIRST_LOAD });
  await expect(fieldError(page.getByRole("main"), "policy-name")).toHaveText(nameMessage);

  // A phone number that is not international.
  const phoneMessage = await apiMessage(
    await t.write.put(`organizations/${t.organizationId}`, { data: { phone: "0801 234 5678" } }),
    "phone",
  );
  expect(phoneMessage).toBe("Enter an international phone number, like +2348012345678");
  await page.goto("/settings");
  await page.getByLabel("Phone", { exact: true }).fill("0801 234 5678", { timeout: FIRST_LOAD });
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(fieldError(page.getByRole("main"), "org-phone")).toHaveText(phoneMessage);

  await page.context().close();
});
