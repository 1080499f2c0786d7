// The webhooks page: add an endpoint (a receiver this spec runs on
// 127.0.0.1), keep its secret, send a test event and find it in the delivery
// log — a row per event and endpoint, its attempts inside — with its signed
// request (the JSON indented), retry it, disable and enable, edit it, roll its
// secret (the next delivery verifies with both), delete. And the same page at
// phone width, where the delivery log is a card per event, filtered by the
// outcome of its latest attempt.
// Each state is checked at 1280 and 390 px (axe, no sideways scroll) and shot
// (checkPage). Needs WEBHOOK_ALLOW_PRIVATE_URLS=true on the app.
import crypto from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { unique } from "../support/api";
import { startReceiver, type Receiver } from "../api/_helpers";
import { checkPage, clippedElements } from "../support/screens";

const receivers: Receiver[] = [];
test.afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function signUpAndOpenWebhooks(page: Page, { phone = false } = {}) {
  await page.goto("/sign-up");
  await page.getByLabel("Your name").fill("Tunde Bakare");
  await page.getByLabel("Business name").fill(`Hooks ${unique()} Ltd`);
  await page.getByLabel("Work email").fill(`hooks-${unique()}@example.test`);
  await page.getByLabel("Password").fill("correct-horse-battery");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Welcome, Tunde" })).toBeVisible();
  if (phone) {
    await page.getByRole("button", { name: "Open menu" }).click();
    await page.getByRole("dialog", { name: "Menu" }).getByRole("link", { name: "Webhooks" }).click();
  } else {
    await page.getByRole("link", { name: "Webhooks" }).first().click();
  }
  await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
}

/** Adds an endpoint with the default events; answers the secret shown once. */
async function addEndpoint(page: Page, url: string) {
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a webhook endpoint" });
  await dialog.getByLabel("Endpoint URL").fill(url);
  for (const event of ["policy.purchased", "policy.renewed", "claim.submitted", "payment.completed"]) {
    await expect(dialog.getByRole("checkbox", { name: event })).toBeChecked();
  }
  await dialog.getByRole("button", { name: "Add endpoint" }).click();
  const secret = page.getByTestId("webhook-secret");
  await expect(secret).toHaveText(/^whsec_[A-Za-z0-9+/]{43}=$/);
  return (await secret.textContent())!;
}

const noHorizontalOverflow = async (page: Page, width: number) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

test("add a webhook, send a test event, see it in the log, retry, disable, delete", async ({ page }) => {
  const rx = await startReceiver();
  receivers.push(rx);
  await signUpAndOpenWebhooks(page);

  await expect(page.getByText("No endpoints yet")).toBeVisible();
  await expect(page.getByText("No deliveries yet")).toBeVisible();
  await checkPage(page, "webhooks-empty", page.getByText("No deliveries yet"));

  // Field errors before anything is sent.
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const form = page.getByRole("dialog", { name: "Add a webhook endpoint" });
  await form.getByLabel("Endpoint URL").fill("ftp://example.com/hooks");
  await form.getByRole("button", { name: "Add endpoint" }).click();
  await expect(form.getByText("Enter a web address starting with http:// or https://")).toBeVisible();
  await checkPage(page, "webhooks-add-dialog", form.getByText("Enter a web address starting with http:// or https://"));
  await form.getByRole("button", { name: "Cancel" }).click();

  const secret = await addEndpoint(page, rx.url);
  await expect(page.getByRole("dialog", { name: "Copy your signing secret" })).toContainText("only time it is shown");
  await checkPage(page, "webhooks-secret", page.getByTestId("webhook-secret"));
  await page.getByRole("button", { name: "I have stored it" }).click();
  await expect(page.getByTestId("webhook-secret")).toHaveCount(0);

  const row = page.getByTestId("webhook-row").filter({ hasText: rx.url });
  await expect(row).toContainText("enabled");
  for (const event of ["policy.purchased", "policy.renewed", "claim.submitted", "payment.completed"]) {
    await expect(row).toContainText(event);
  }
  await expect(page.getByText("No endpoints yet")).toHaveCount(0);

  // A test event: delivered, and signed so that the receiver can check it.
  await row.getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByText("Test event delivered (HTTP 200)")).toBeVisible();
  expect(rx.requests).toHaveLength(1);
  await expect(row.getByTestId("error-rate")).toHaveText("Last 7 days: 0% of 1 attempt failed.");
  const ping = rx.requests[0]!;
  const body = new StandardWebhook(secret).verify(ping.body, ping.headers) as { id: string; type: string };
  expect(body.type).toBe("ping");
  expect(ping.headers["x-coverdesk-signature"]).toBe(crypto.createHmac("sha256", secret).update(ping.body).digest("hex"));

  // One row per event and endpoint: the latest attempt's outcome and time, how many attempts.
  const log = page.getByRole("region", { name: "Delivery log" });
  const pingRow = log.getByRole("row").filter({ hasText: "ping" });
  await expect(pingRow).toHaveCount(1);
  await expect(pingRow).toContainText(body.id);
  await expect(pingRow).toContainText("succeeded");
  await expect(pingRow).toContainText("HTTP 200");
  await expect(pingRow).toContainText(rx.url);
  await expect(pingRow.getByRole("cell").nth(3)).toHaveText("1");
  // Ready at both widths: the event, a button in the table row or heading the card.
  await checkPage(page, "webhooks-log", log.getByRole("button", { name: /ping/ }).first());

  // Its attempts open from the keyboard, inside the log.
  const disclosure = pingRow.getByRole("button", { name: /ping/ });
  await expect(disclosure).toHaveAttribute("aria-expanded", "false");
  await expect(log.getByRole("list", { name: "Attempts" })).toHaveCount(0);
  await disclosure.focus();
  await page.keyboard.press("Enter");
  await expect(disclosure).toHaveAttribute("aria-expanded", "true");
  const logAttempts = log.getByRole("list", { name: "Attempts" }).getByRole("listitem");
  await expect(logAttempts).toHaveCount(1);
  await expect(logAttempts.first()).toContainText("#1");
  await expect(logAttempts.first()).toContainText("succeeded");
  await expect(logAttempts.first()).toContainText("HTTP 200");
  await checkPage(page, "webhooks-log-open", logAttempts.first());

  // The attempt's details: the signed request as sent, its JSON indented.
  await logAttempts.first().getByRole("button", { name: "Details of attempt 1" }).click();
  const detail = page.getByRole("dialog", { name: "Delivery" });
  await expect(detail).toContainText(`ping → ${rx.url}`);
  await expect(detail).toContainText(`webhook-id: ${body.id}`);
  await expect(detail).toContainText(`webhook-signature: ${ping.headers["webhook-signature"]}`);
  await expect(detail).toContainText(`X-Coverdesk-Signature: ${ping.headers["x-coverdesk-signature"]}`);
  expect(await detail.getByLabel("Request body").textContent()).toBe(JSON.stringify(JSON.parse(ping.body), null, 2));
  await expect(detail.getByLabel(/^Response/)).toHaveText("ok"); // not JSON: as it came
  const attempts = detail.getByRole("list", { name: "Attempts" }).getByRole("listitem");
  await expect(attempts).toHaveCount(1);
  await checkPage(page, "webhooks-detail", detail.getByRole("list", { name: "Attempts" }));
  expect(await clippedElements(detail), "the delivery's details at 1280 px").toEqual([]);

  // Retry now: the same event again, as attempt 2.
  await detail.getByRole("button", { name: "Retry now" }).click();
  await expect(page.getByText("Delivered", { exact: true })).toBeVisible();
  await expect(attempts).toHaveCount(2);
  await expect(attempts.nth(1)).toContainText("#2");
  await expect(attempts.nth(1)).toContainText("succeeded");
  expect(rx.requests.map((r) => r.headers["webhook-id"])).toEqual([body.id, body.id]);
  await detail.getByRole("button", { name: "Close" }).click();
  // Still one row for the event, now of two attempts; it stays open while the log refreshes.
  await expect(pingRow).toHaveCount(1);
  await expect(pingRow.getByRole("cell").nth(3)).toHaveText("2");
  await expect(logAttempts).toHaveCount(2);
  await expect(logAttempts.nth(1)).toContainText("#2");
  await expect(logAttempts.nth(1)).toContainText("succeeded");
  await disclosure.click();
  await expect(disclosure).toHaveAttribute("aria-expanded", "false");
  await expect(log.getByRole("list", { name: "Attempts" })).toHaveCount(0);

  // The business's own switch.
  await row.getByRole("button", { name: "Disable" }).click();
  await expect(row).toContainText("disabled");
  await expect(row).toContainText("Disabled by the business");
  await row.getByRole("button", { name: "Enable" }).click();
  await expect(row).toContainText("enabled");
  await expect(row).not.toContainText("Disabled by the business");

  // Edit: another address and one event fewer; the secret stays.
  const rx2 = await startReceiver();
  receivers.push(rx2);
  await row.getByRole("button", { name: "Edit" }).click();
  const edit = page.getByRole("dialog", { name: "Edit webhook endpoint" });
  await expect(edit.getByLabel("Endpoint URL")).toHaveValue(rx.url);
  await edit.getByLabel("Endpoint URL").fill(rx2.url);
  await edit.getByRole("checkbox", { name: "policy.renewed" }).uncheck();
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Endpoint updated")).toBeVisible();
  const moved = page.getByTestId("webhook-row").filter({ hasText: rx2.url });
  await expect(moved).toContainText("policy.purchased");
  await expect(moved).not.toContainText("policy.renewed");

  // Roll the secret with an hour of overlap: the next delivery verifies with the old secret and the new one.
  await moved.getByRole("button", { name: "Roll secret" }).click();
  const roll = page.getByRole("dialog", { name: "Roll the signing secret" });
  await roll.getByLabel("Keep the old secret for").selectOption("1");
  await checkPage(page, "webhooks-roll-secret", roll.getByLabel("Keep the old secret for"));
  await roll.getByRole("button", { name: "Roll secret" }).click();
  const rolled = page.getByTestId("rolled-secret");
  await expect(rolled).toHaveText(/^whsec_[A-Za-z0-9+/]{43}=$/);
  const newSecret = (await rolled.textContent())!;
  expect(newSecret).not.toBe(secret);
  await page.getByRole("button", { name: "I have stored it" }).click();
  await expect(moved.getByTestId("secret-overlap")).toContainText("The previous secret also signs deliveries until");
  await moved.getByRole("button", { name: "Send test event" }).click();
  const [overlapping] = await rx2.waitFor(1);
  for (const key of [secret, newSecret]) new StandardWebhook(key).verify(overlapping!.body, overlapping!.headers);
  expect(overlapping!.headers["x-coverdesk-signature"]).toBe(
    crypto.createHmac("sha256", newSecret).update(overlapping!.body).digest("hex"),
  );

  // Delete asks first; cancelling keeps it.
  await moved.getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText("Delete this endpoint?");
  await expect(confirm).toContainText(rx2.url);
  await checkPage(page, "webhooks-delete-dialog", confirm);
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(moved).toBeVisible();
  await moved.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete endpoint" }).click();
  await expect(page.getByText("Webhook deleted")).toBeVisible();
  await expect(page.getByTestId("webhook-row")).toHaveCount(0);
  await expect(page.getByText("No endpoints yet")).toBeVisible();
  await expect(page.getByText("No deliveries yet")).toBeVisible();
  expect(rx.requests).toHaveLength(2);
});

test("the webhooks page works at phone width: the delivery log is a card per event, every field shown", async ({ page }) => {
  // The first attempt is refused with a JSON answer, the next ones arrive.
  const rx = await startReceiver((n) =>
    n === 1
      ? { status: 500, headers: { "Content-Type": "application/json" }, body: '{"error":"database down","retry":true}' }
      : { status: 200, body: "ok" },
  );
  receivers.push(rx);
  await page.setViewportSize({ width: 390, height: 844 });
  await signUpAndOpenWebhooks(page, { phone: true });
  await expect(page.getByText("No endpoints yet")).toBeVisible();
  await noHorizontalOverflow(page, 390);

  await addEndpoint(page, rx.url);
  await page.getByRole("button", { name: "I have stored it" }).click();

  const row = page.getByTestId("webhook-row").filter({ hasText: rx.url });
  await row.getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByText("Test event failed: HTTP 500")).toBeVisible();

  // No table at this width: a list with one card per event, each field under its label.
  const log = page.getByRole("region", { name: "Delivery log" });
  await expect(log.getByRole("table")).toHaveCount(0);
  const list = log.getByRole("list", { name: "Deliveries" });
  const card = list.getByTestId("delivery-group").filter({ hasText: "ping" });
  await expect(card).toHaveCount(1);
  const field = (label: string) =>
    card
      .locator("dl > div")
      .filter({ has: page.locator("dt", { hasText: label }) })
      .locator("dd");
  await expect(field("Result")).toContainText("failed");

  // The failed attempt's details: the receiver's JSON answer, indented.
  await card.getByRole("button", { name: "Details", exact: true }).click();
  const detail = page.getByRole("dialog", { name: "Delivery" });
  await expect(detail.getByLabel(/^Response/)).toBeVisible();
  expect(await detail.getByLabel(/^Response/).textContent()).toBe('{\n  "error": "database down",\n  "retry": true\n}');
  expect(await detail.getByLabel("Request body").textContent()).toMatch(/^\{\n {2}"id": "evt_/);
  await detail.getByRole("button", { name: "Retry now" }).click();
  await expect(page.getByText("Delivered", { exact: true })).toBeVisible();
  await detail.getByRole("button", { name: "Close" }).click();

  // The outcome filter goes by the latest attempt: delivered now, though the first attempt failed.
  await expect(field("Attempts")).toHaveText("2");
  await log.getByLabel("Outcome").selectOption("failed");
  await expect(log.getByText("No deliveries match these filters")).toBeVisible();
  await log.getByLabel("Outcome").selectOption("succeeded");
  await expect(card).toHaveCount(1);

  await card.getByRole("button", { name: /ping/ }).click();
  const attempts = card.getByRole("list", { name: "Attempts" }).getByRole("listitem");
  await expect(attempts).toHaveCount(2);
  await expect(attempts.nth(0)).toContainText("#1");
  await expect(attempts.nth(0)).toContainText("failed");
  await expect(attempts.nth(0)).toContainText("HTTP 500");
  await expect(attempts.nth(1)).toContainText("#2");
  await expect(attempts.nth(1)).toContainText("succeeded");
  await expect(attempts.nth(1).getByRole("button", { name: "Details of attempt 2" })).toBeVisible();
  for (const [label, value] of [
    ["Endpoint", rx.url],
    ["Result", "succeeded"],
    ["Result", "HTTP 200"],
    ["Attempts", "2"],
    ["Time", /\d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC/],
  ] as const) {
    await expect(field(label), label).toContainText(value);
    await expect(field(label), label).toBeVisible();
  }
  await expect(card.getByRole("button", { name: "Details", exact: true })).toBeVisible();
  // Every field and attempt lies inside the card, nothing is cut off, nothing scrolls sideways.
  const cardBox = (await card.boundingBox())!;
  for (const dd of [...(await card.locator("dd").all()), ...(await attempts.all())]) {
    const b = (await dd.boundingBox())!;
    expect(b.x).toBeGreaterThanOrEqual(cardBox.x);
    expect(b.x + b.width).toBeLessThanOrEqual(cardBox.x + cardBox.width + 1);
  }
  expect(await clippedElements(list)).toEqual([]);
  await noHorizontalOverflow(page, 390);

  // Judged and shot at both widths (an open row of the table at 1280 px), then back to the phone.
  await checkPage(page, "webhooks-log-event-open", log.getByRole("list", { name: "Attempts" }).getByRole("listitem").nth(1));
  await page.setViewportSize({ width: 390, height: 844 });

  // The delivery's details: the signed request, wrapped, not clipped.
  await attempts.nth(1).getByRole("button", { name: "Details of attempt 2" }).click();
  await expect(detail).toContainText("webhook-signature: v1,");
  await expect(detail).toContainText(rx.url);
  expect(await clippedElements(detail)).toEqual([]);
  await noHorizontalOverflow(page, 390);
  const detailBox = (await detail.boundingBox())!;
  expect(detailBox.x).toBeGreaterThanOrEqual(0);
  expect(detailBox.x + detailBox.width).toBeLessThanOrEqual(390);
});
