// Notifications by email and SMS in the browser: an owner verifies their phone
// (a wrong code first) and words the "Claim approved" notice with its live
// preview (a bad placeholder refused by the server under its field, nothing
// saved); a customer gives a phone on the hosted checkout (a bad one first);
// with SMS on, approving their claim sends the new words by email and by text
// message; the policyholder signs in to the portal with a code by text
// message and turns texts off; the customer's page lists the messages; the
// notice is restored to its default words. SMS go to DATA_DIR/sms/*.json
// (no provider configured). Pages checked at 1280 and 390 px by checkPage.
import fs from "node:fs/promises";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { createPolicyFor, initializeFor, ok, tenantWithClients, trpc } from "../api/_helpers";
import { waitForMailbox } from "../api/_mail";
import { unique } from "../support/api";
import { checkPage, FIRST_LOAD, signedInPage } from "../support/screens";

/* eslint-disable @typescript-eslint/no-explicit-any */

interface SmsFile {
  file: string;
  to: string;
  body: string;
  kind: string;
  livemode: boolean;
  createdAt: string;
}

const smsDirectory = () => path.join(process.env.E2E_DATA_DIR ?? "", "sms");

/** The text messages written to `to`, oldest first (files are named by time). */
async function smsTo(to: string): Promise<SmsFile[]> {
  const dir = smsDirectory();
  const files = (await fs.readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith(".json")).sort();
  const out: SmsFile[] = [];
  for (const file of files) {
    const text = await fs.readFile(path.join(dir, file), "utf8").catch(() => "");
    if (!text) continue;
    const sms = JSON.parse(text) as Omit<SmsFile, "file">;
    if (sms.to === to) out.push({ file, ...sms });
  }
  return out;
}

/** Polls until a text message to `to` satisfies `match`; answers the newest such. */
async function waitForSms(to: string, match: (sms: SmsFile) => boolean, what: string, timeoutMs = 30_000): Promise<SmsFile> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = (await smsTo(to)).filter(match);
    if (found.length) return found[found.length - 1]!;
    if (Date.now() > until) {
      const seen = (await smsTo(to)).map((s) => `${s.kind}: ${s.body}`).join(" | ") || "nothing";
      throw new Error(`${to}: expected ${what} in ${smsDirectory()} within ${timeoutMs} ms; found: ${seen}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A Nigerian mobile number no other run uses: +234 80x xxx xxxx. */
const mobile = (prefix: "803" | "805") => `+234${prefix}${String(1_000_000 + Math.floor(Math.random() * 8_999_999))}`;

const codeOf = (sms: SmsFile) => /\b(\d{6})\b/.exec(sms.body)![1]!;

async function openNotice(page: Page, label: string) {
  await page.getByTestId("notice-row").filter({ hasText: label }).click();
  const editor = page.getByTestId("template-editor");
  await expect(editor.getByRole("heading", { name: label, level: 3 })).toBeVisible({ timeout: FIRST_LOAD });
  await expect(editor.getByTestId("template-preview")).toBeVisible();
  return editor;
}

test("an owner words the Claim approved notice; the policyholder gets it by email and text message", async ({ browser }) => {
  test.setTimeout(240_000);
  const t = await tenantWithClients(`Notices Co ${unique()}`);
  const ownerPhone = mobile("803");
  const customerPhone = mobile("805");
  const customerEmail = `holder-${unique()}@example.test`;
  const templates = async () => (await ok(await t.write.get("business/notification-templates"))).data as any[];
  const claimApproved = async () => (await templates()).find((x) => x.kind === "claim_approved");

  const page = await signedInPage(browser, t.account);
  await page.goto("/settings/notifications");
  await expect(page.getByRole("heading", { name: "Notifications", level: 1 })).toBeVisible({ timeout: FIRST_LOAD });
  await expect(page.getByTestId("sms-alerts-setting")).toContainText("Send SMS alerts is off");

  // ---- The owner's phone: a bad number, then a wrong code, then the texted one ----
  const phoneCard = page.getByRole("region", { name: "Your phone for SMS alerts" });
  await expect(phoneCard.getByTestId("profile-phone")).toHaveText("No phone yet: you get no SMS alerts.");
  await phoneCard.getByLabel("Mobile number").fill("12");
  await phoneCard.getByRole("button", { name: "Send code" }).click();
  await expect(phoneCard.locator('[id="profile-phone-input-error"]')).toContainText("Enter a valid phone number");
  await phoneCard.getByLabel("Mobile number").fill(ownerPhone);
  await phoneCard.getByRole("button", { name: "Send code" }).click();
  const codeField = phoneCard.getByLabel("Code from the text message");
  await expect(codeField).toBeVisible();
  const code = codeOf(await waitForSms(ownerPhone, (s) => s.kind === "phone_code", "the phone's code"));
  await codeField.fill(code === "000000" ? "111111" : "000000");
  await phoneCard.getByRole("button", { name: "Verify" }).click();
  await expect(phoneCard.locator('[id="profile-phone-code-error"]')).toHaveText("This code is wrong or has expired. Ask for a new one.");
  await codeField.fill(code);
  await phoneCard.getByRole("button", { name: "Verify" }).click();
  await expect(phoneCard.getByTestId("profile-phone")).toContainText(`SMS alerts go to ${ownerPhone}`);
  await expect(phoneCard.getByTestId("profile-phone")).toContainText("verified");

  // ---- The notices, all on their default words ----
  const rows = page.getByTestId("notice-row");
  await expect(rows.filter({ hasText: "Claim approved" })).toContainText("Default");
  await expect(rows).toHaveCount((await templates()).length);
  await checkPage(page, "settings-notifications", rows.first());

  // ---- A placeholder the notice does not know: the server refuses it under the subject, nothing is saved ----
  const editor = await openNotice(page, "Claim approved");
  const subject = editor.getByLabel("Email subject");
  await expect(subject).toHaveValue("Your claim on {{policyName}} was approved");
  await expect(editor.getByTestId("preview-subject")).toHaveText("Your claim on Motor Third Party was approved");
  await subject.fill("Hello {{nope}}");
  const refused = page.waitForResponse((r) => r.url().includes("notificationTemplates.update"));
  await editor.getByRole("button", { name: "Save" }).click();
  const answer = await refused;
  expect(answer.status()).toBe(422);
  expect(await answer.text()).toContain("Unknown placeholder {{nope}}");
  const subjectError = editor.locator('[id="template-emailSubject-error"]');
  await expect(subjectError).toContainText("Unknown placeholder {{nope}}");
  await expect(subjectError).toHaveAttribute("role", "alert"); // the server's answer, not only the check as you type
  await expect(subject).toBeFocused();
  expect((await claimApproved()).customized).toBe(false);

  // ---- New words, the preview following with the sample policyholder ----
  await subject.fill("Good news about your claim, {{customerName}}");
  await expect(subjectError).toHaveCount(0);
  await expect(editor.getByTestId("preview-subject")).toHaveText("Good news about your claim, Adaeze Okafor");
  const sms = editor.getByLabel("Text message", { exact: true });
  await sms.fill(", your claim is approved: {{amount}}. {{portalLink}}");
  await sms.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(0, 0));
  await expect(editor.getByTestId("placeholder-target")).toHaveText("Text message");
  await editor.getByRole("button", { name: /^Insert \{\{customerName\}\}/ }).click();
  await expect(sms).toHaveValue("{{customerName}}, your claim is approved: {{amount}}. {{portalLink}}");
  await expect(editor.getByTestId("preview-sms")).toHaveText(
    "Adaeze Okafor, your claim is approved: NGN 100,000.00. https://coverdesk.example/portal/org_sample",
  );
  // Money reads "NGN …" in a text message: GSM-7. An emoji makes it UCS-2 (70 characters a segment).
  await expect(editor.getByTestId("sms-counter")).toContainText(/^\d+ characters · GSM-7 · 1 of 2 segments/);
  await sms.fill("{{customerName}}, your claim is approved 🎉 {{portalLink}}");
  await expect(editor.getByTestId("sms-counter")).toContainText(/^\d+ characters · UCS-2 · 2 of 2 segments/);
  await sms.fill("{{customerName}}, your claim is approved: {{amount}}. {{portalLink}}");
  await editor.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Claim approved: your words are saved")).toBeVisible();
  await expect(editor.getByText("Customized")).toBeVisible();
  const saved = await claimApproved();
  expect(saved).toMatchObject({
    customized: true,
    emailSubject: "Good news about your claim, {{customerName}}",
    smsBody: "{{customerName}}, your claim is approved: {{amount}}. {{portalLink}}",
  });
  await checkPage(page, "settings-notification-editor", editor.getByTestId("template-preview"));

  // ---- A sample to oneself: by email, and by text message to the verified phone ----
  await editor.getByRole("button", { name: "Send me a test" }).click();
  await expect(page.getByText(`Sample sent to ${t.account.email} and by text message to ${ownerPhone}`)).toBeVisible();
  await waitForSms(ownerPhone, (s) => s.kind === "template_test" && s.body.includes("your claim is approved"), "the sample");

  // ---- The customer pays on the hosted checkout and gives a phone (a bad one first) ----
  const policy = await createPolicyFor(t.write, { name: `Van cover ${unique()}`, price: "40000.00" });
  const payment = await initializeFor(t.write, policy, customerEmail);
  await page.goto(`/pay/${payment.reference}`);
  const phoneField = page.getByLabel("Mobile number (for text messages about your cover)");
  await expect(phoneField).toBeVisible({ timeout: FIRST_LOAD });
  await page.getByLabel("Your name (optional)").fill("Ngozi Bello");
  await phoneField.fill("12345");
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry").pressSequentially("1230");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Pay now" }).click();
  await expect(page.locator('[id="customer-phone-error"]')).toContainText("Enter a valid phone number");
  await checkPage(page, "checkout-phone", phoneField);
  await phoneField.fill(`0${customerPhone.slice(4)}`); // as dialled in Nigeria
  await page.getByRole("button", { name: "Pay now" }).click();
  await expect(page.getByText("Payment successful")).toBeVisible();

  // ---- SMS on; a claim is filed and approved: the new words by email and text message ----
  await ok(await t.write.put("business/settings", { data: { notifications: { sms: true } } }));
  const claim = await ok(
    await t.write.post("claims", {
      data: { policyId: policy.id, email: customerEmail, type: "accident", description: "A van door dented in a car park.", amount: 25000 },
    }),
    201,
  );
  await ok(await t.write.patch(`claims/${claim.id}/status`, { data: { status: "under_review" } }));
  await ok(await t.write.patch(`claims/${claim.id}/status`, { data: { status: "approved" } }));
  await waitForMailbox(
    customerEmail,
    (m) => m.some((x) => x.subject === "Good news about your claim, Ngozi Bello"),
    "the claim approved email in the new words",
  );
  const text = await waitForSms(customerPhone, (s) => s.kind === "claim_approved", "the claim approved text message");
  expect(text.body).toMatch(new RegExp(`^Ngozi Bello, your claim is approved: NGN 25,000\\.00\\. \\S+/portal/${t.organizationId}/claims/${claim.id}$`));
  expect(text.livemode).toBe(true);

  // ---- The policyholder signs in to the portal with a code by text message, and turns texts off ----
  await page.goto(`/portal/${t.organizationId}`);
  await page.getByLabel("Email address").fill(customerEmail, { timeout: FIRST_LOAD });
  await page.getByRole("radio", { name: "Text message" }).check();
  await expect(page.getByText("If a phone is on file, the code comes by text message, else by email.")).toBeVisible();
  await checkPage(page, "portal-sign-in-sms", page.getByRole("button", { name: "Text me a code" }));
  await page.getByRole("button", { name: "Text me a code" }).click();
  await expect(page.getByLabel("Sign-in code")).toBeVisible();
  const portalCode = codeOf(await waitForSms(customerPhone, (s) => s.kind === "portal_code", "the portal's sign-in code"));
  await page.getByLabel("Sign-in code").fill(portalCode);
  await page.getByRole("button", { name: "Sign in" }).click();
  const contact = page.getByTestId("portal-contact");
  await expect(contact.getByTestId("portal-contact-phone")).toHaveText(customerPhone, { timeout: FIRST_LOAD });
  await contact.getByRole("button", { name: "Change number" }).click();
  await contact.getByLabel("New mobile number").fill("123");
  await contact.getByRole("button", { name: "Save number" }).click();
  await expect(contact.locator('[id="portal-phone-error"]')).toContainText("Enter a valid phone number");
  await contact.getByRole("button", { name: "Cancel" }).click();
  const textsSwitch = contact.getByRole("switch", { name: "Text me about my cover" });
  await expect(textsSwitch).toHaveAttribute("aria-checked", "true");
  await textsSwitch.click();
  await expect(contact.getByTestId("portal-contact-sms")).toContainText("Off: you get emails only");
  await expect(textsSwitch).toHaveAttribute("aria-checked", "false");
  await checkPage(page, "portal-contact", contact);

  // ---- The customer's page: phone, texts off, and the messages by both channels ----
  const [customer] = (await trpc<{ data: { id: string }[] }>(t.account, "customers.list", { q: customerEmail }, "query")).data;
  await page.goto(`/customers/${customer!.id}`);
  await expect(page.getByTestId("customer-phone").first()).toContainText(customerPhone, { timeout: FIRST_LOAD });
  await expect(page.getByTestId("customer-phone").first()).toContainText("Texts off");
  const messages = page.getByRole("region", { name: "Messages", exact: true });
  const approvedText = messages
    .getByTestId("customer-message")
    .filter({ hasText: "Claim approved", visible: true })
    .filter({ hasText: "Text message" });
  await expect(approvedText).toContainText("Ngozi Bello, your claim is approved");
  await expect(approvedText).toContainText("Sent");
  await expect(
    messages.getByTestId("customer-message").filter({ hasText: "Good news about your claim, Ngozi Bello", visible: true }),
  ).toContainText("Email");
  const signInCode = messages.getByTestId("customer-message").filter({ hasText: "Sign-in code", visible: true });
  await expect(signInCode).toContainText("Text message");
  await expect(signInCode).toContainText("A one-time sign-in code (not shown here)");
  await expect(signInCode).not.toContainText(portalCode);
  await checkPage(page, "customer-messages", messages);

  // ---- Back to the default words, after a confirmation ----
  await page.goto("/settings/notifications");
  const again = await openNotice(page, "Claim approved");
  await expect(again.getByLabel("Email subject")).toHaveValue("Good news about your claim, {{customerName}}");
  await again.getByRole("button", { name: "Restore default" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Restore the default words?" });
  await confirm.getByRole("button", { name: "Restore default" }).click();
  await expect(page.getByText("Claim approved: back to the default words")).toBeVisible();
  await expect(again.getByLabel("Email subject")).toHaveValue("Your claim on {{policyName}} was approved");
  expect((await claimApproved()).customized).toBe(false);
  await again.getByRole("button", { name: "All messages" }).click();
  await expect(rows.filter({ hasText: "Claim approved" })).toContainText("Default");

  // ---- The owner's phone removed, after a confirmation ----
  await phoneCard.getByRole("button", { name: "Remove" }).click();
  await page.getByRole("alertdialog", { name: "Remove your phone?" }).getByRole("button", { name: "Remove phone" }).click();
  await expect(phoneCard.getByTestId("profile-phone")).toHaveText("No phone yet: you get no SMS alerts.");
  expect((await trpc<{ phone: string | null }>(t.account, "profile.phone", undefined, "query")).phone).toBeNull();
  await page.context().close();
});
