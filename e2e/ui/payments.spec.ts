// The Payments page a business runs its day on: policy, fee and net per row,
// filters (status, policy, dates) and search that change the rows, the totals
// and the CSV alike; a payment's own page with its timeline, money, customer,
// the coverage it created and the events and webhook deliveries it caused.
// The customer names themselves on the hosted checkout.
import fs from "node:fs/promises";
import { parse } from "csv-parse/sync";
import { expect, test, type Page } from "@playwright/test";
import {
  buyPolicy,
  CARDS,
  createPolicyFor,
  initializeFor,
  ok,
  payReference,
  startReceiver,
  tenantWithClients,
} from "../api/_helpers";
import { trpc, unique } from "../support/api";
import { checkPage, clippedElements, FIRST_LOAD, signedInPage } from "../support/screens";

const naira = (amount: string) =>
  new Intl.NumberFormat("en-NG", { style: "currency", currency: "NGN", minimumFractionDigits: 2 }).format(Number(amount));

const rows = (page: Page) => page.getByRole("table", { name: "Payments" }).getByTestId("payment-row");
const total = (page: Page, name: string) => page.getByTestId(`total-${name}`);

test("payments: columns, filters, search, totals, CSV, and one payment in depth", async ({ browser }) => {
  test.setTimeout(240_000);
  const t = await tenantWithClients();
  const receiver = await startReceiver();
  await ok(await t.write.post("business/webhooks", { data: { url: receiver.url, events: ["payment.completed", "policy.purchased"] } }), 201);

  const home = await createPolicyFor(t.write, { name: `Home Shield ${unique()}`, price: "1000.00" });
  const phone = await createPolicyFor(t.write, { name: `Phone Cover ${unique()}`, price: "250.00" });
  const ada = `ada-${unique()}@example.test`;
  const ben = `ben-${unique()}@example.test`;
  const cy = `cy-${unique()}@example.test`;

  // Ada pays on the hosted checkout in the browser and gives her name.
  const adaPayment = await initializeFor(t.write, home, ada);
  const page = await signedInPage(browser, t.account);
  await page.goto(`/pay/${adaPayment.reference}`);
  await page.getByLabel("Your name (optional)").fill("Ada Obi");
  await page.getByLabel("Card number").fill(CARDS.success);
  await page.getByLabel("Expiry").fill("12/30");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Pay now" }).click();
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();

  // Ben buys the phone cover, then is declined on a second try; Cy has not paid yet.
  await buyPolicy(t.write, phone, ben);
  const declined = await initializeFor(t.write, phone, ben);
  expect((await payReference(declined.reference, CARDS.declined)).status).toBe(402);
  const pendingPayment = await initializeFor(t.write, home, cy);

  await page.goto("/payments");
  await expect(rows(page)).toHaveCount(4);
  // The newest first: Cy's pending payment, then Ben's declined one.
  const adaRow = rows(page).filter({ hasText: adaPayment.reference });
  await expect(adaRow).toContainText("Ada Obi");
  await expect(adaRow).toContainText(ada);
  await expect(adaRow).toContainText(home.name);
  await expect(adaRow).toContainText(naira("1000.00"));
  await expect(adaRow).toContainText(naira("15.00")); // 1.5 % fee
  await expect(adaRow).toContainText(naira("985.00"));
  await expect(adaRow).toContainText("success");
  const pendingRow = rows(page).filter({ hasText: pendingPayment.reference });
  await expect(pendingRow).toContainText("pending");
  await expect(pendingRow).toContainText("—");

  // Totals of every payment: 2 paid (1 000 + 250), 1 failed, 1 pending.
  await expect(total(page, "payments")).toHaveText("4");
  await expect(total(page, "gross")).toHaveText(naira("1250.00"));
  await expect(total(page, "fees")).toHaveText(naira("18.75"));
  await expect(total(page, "net")).toHaveText(naira("1231.25"));
  await checkPage(page, "payments-list", page.getByTestId("payment-totals"));

  // Status filter: the rows and the totals follow, and so does the URL.
  await page.getByLabel("Status", { exact: true }).selectOption("success");
  await expect(rows(page)).toHaveCount(2);
  await expect(total(page, "payments")).toHaveText("2");
  await expect(page).toHaveURL(/status=success/);
  // Policy filter on top: only Ben's successful phone cover.
  await page.getByLabel("Policy", { exact: true }).selectOption({ label: phone.name });
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText(ben);
  await expect(total(page, "gross")).toHaveText(naira("250.00"));

  // The CSV holds exactly the filtered set.
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download CSV" }).click();
  const csv = parse(await fs.readFile((await (await download).path())!), { columns: true }) as Record<string, string>[];
  expect(csv.map((r) => [r.email, r.status, r.amount])).toEqual([[ben, "success", "250.00"]]);

  // Clearing both and searching by name (case-insensitive), then by a reference prefix.
  await page.getByLabel("Status", { exact: true }).selectOption("");
  await page.getByLabel("Policy", { exact: true }).selectOption("");
  await page.getByLabel("Search", { exact: true }).fill("ada o");
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText(adaPayment.reference);
  await page.getByLabel("Search", { exact: true }).fill(declined.reference.slice(0, 12));
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText("failed");
  await page.getByRole("button", { name: "Clear the search" }).click();
  await expect(rows(page)).toHaveCount(4);

  // A date range that ends before today holds nothing: the empty state says so.
  await page.getByLabel("To", { exact: true }).fill("2020-01-01");
  await expect(page.getByText("No payments match these filters")).toBeVisible();
  await page.getByLabel("From", { exact: true }).fill("2020-01-02");
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("Choose a start date on or before the end date");
  await page.goto("/payments");

  // One payment in depth.
  await receiver.waitFor(2);
  await rows(page).filter({ hasText: adaPayment.reference }).getByRole("link").first().click();
  await expect(page).toHaveURL(new RegExp(`/payments/${adaPayment.reference}$`), { timeout: FIRST_LOAD });
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${naira("1000.00")} from Ada Obi`);
  await expect(page.getByTestId("payment-fee")).toHaveText(naira("15.00"));
  await expect(page.getByTestId("payment-net")).toHaveText(naira("985.00"));
  await expect(page.getByTestId("payment-coverage")).toContainText("Started");
  await expect(page.getByTestId("payment-coverage")).toContainText("active");
  const timeline = page.getByRole("list", { name: "Payment timeline" });
  await expect(timeline.getByRole("listitem")).toHaveText([/Payment created/, /Paid/]);
  const events = page.getByTestId("payment-event");
  await expect(events).toHaveCount(2);
  await expect(events.nth(0)).toContainText("payment.completed");
  await expect(events.nth(1)).toContainText("policy.purchased");
  await expect(page.getByTestId("payment-delivery").first()).toContainText("succeeded");
  await expect(page.getByTestId("payment-delivery").first()).toContainText(receiver.url);
  await checkPage(page, "payment-detail", page.getByTestId("payment-delivery").first());

  // The customer link leads to Ada's customer page.
  await page.getByTestId("payment-customer").getByRole("link", { name: "Ada Obi" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Ada Obi");

  // A failed payment's page says why.
  await page.goto(`/payments/${declined.reference}`);
  await expect(page.getByTestId("failure-reason")).toHaveText("The card was declined");
  await expect(page.getByRole("list", { name: "Payment timeline" }).getByRole("listitem")).toHaveText([
    /Payment created/,
    /Failed.*The card was declined/,
  ]);

  // Another organization's reference is not found, and the page offers the way back.
  const other = await tenantWithClients();
  const stranger = await initializeFor(other.write, await createPolicyFor(other.write), `x-${unique()}@example.test`);
  await page.goto(`/payments/${stranger.reference}`);
  await expect(page.getByText("Payment not found")).toBeVisible();
  await expect(page.getByRole("link", { name: "Payments" }).last()).toHaveAttribute("href", "/payments");

  // At 390 px every row is a card showing every field, nothing clipped.
  await page.goto("/payments");
  await page.setViewportSize({ width: 390, height: 844 });
  const cards = page.getByRole("list", { name: "Payments" }).getByTestId("payment-row");
  await expect(cards).toHaveCount(4);
  for (const label of ["Policy", "Amount", "Fee", "Net", "Status", "Date"]) {
    await expect(cards.first().getByText(label, { exact: true })).toBeVisible();
  }
  expect(await clippedElements(page.getByRole("list", { name: "Payments" }))).toEqual([]);

  await receiver.close();
  await page.context().close();
  // The tRPC list agrees with the page (and is what the page reads).
  const list = await trpc<{ data: unknown[] }>(t.account, "payments.search", { limit: 20 }, "query");
  expect(list.data).toHaveLength(4);
});
