// Mail that fails for real: SMTP_URL points at a port nothing listens on, then
// a real (tiny) SMTP server comes up on it. No mocks: the sends go over sockets.
import { afterEach, describe, expect, it, vi } from "vitest";

// Before any app module loads (env.ts parses process.env once, the mailer is cached).
const { smtpPort } = await vi.hoisted(async () => {
  const net = await import("node:net");
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  vi.stubEnv("SMTP_URL", `smtp://mailer:s3cret-pass@127.0.0.1:${port}`);
  delete (globalThis as { __coverdeskEnv?: unknown }).__coverdeskEnv;
  delete (globalThis as { __coverdeskMailer?: unknown }).__coverdeskMailer;
  return { smtpPort: port };
});

import { db } from "@/server/db/client";
import { payWithCard, SANDBOX_CARDS } from "@/server/payments/checkout";
import { CheckoutInput, InitializePaymentInput } from "@/lib/schemas/payments";
import { initializePayment } from "@/server/payments/service";
import { CreatePolicyInput } from "@/lib/schemas/policies";
import { createPolicy } from "@/server/policies/service";
import { runJobsOnce } from "@/server/jobs/runner";
import { ownerWithOrganization, unique } from "@/test/fixtures";
import { MAIL_MAX_ATTEMPTS, nextMailAttemptAt } from "./kinds";
import { describeMailError } from "./sender";
import { smtpReceiver } from "./test-helpers";

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function paidOrder() {
  const { actor, org, user } = await ownerWithOrganization();
  const policy = await createPolicy(
    actor,
    CreatePolicyInput.parse({ name: "Fleet", type: "auto", duration: "monthly", price: "150.00" }),
  );
  const customer = `cust-${unique()}@example.test`;
  const payment = await initializePayment(
    actor,
    InitializePaymentInput.parse({ amount: 150, policyId: policy.id, email: customer }),
  );
  await payWithCard(
    payment.reference,
    CheckoutInput.parse({
      cardNumber: SANDBOX_CARDS.success,
      expMonth: 12,
      expYear: new Date().getUTCFullYear() + 2,
      cvc: "123",
    }),
  );
  return { org, owner: user, customer, reference: payment.reference };
}

const tasksOf = (organizationId: string) => db.mailTask.findMany({ where: { organizationId }, orderBy: { kind: "asc" } });
/** Time passing, as far as these tasks know: their next try is due now. */
const makeDue = (organizationId: string) =>
  db.mailTask.updateMany({ where: { organizationId }, data: { runAt: new Date(Date.now() - 1000) } });

describe("a mail that cannot be sent", () => {
  it("is retried later with its error kept; the payment is untouched; it goes once the server answers", async () => {
    const { org, owner, customer, reference } = await paidOrder();
    const paymentBefore = await db.payment.findUniqueOrThrow({ where: { reference } });
    const ledgerBefore = await db.ledgerTransaction.count({ where: { organizationId: org.id } });

    const before = Date.now();
    await runJobsOnce();
    const failed = await tasksOf(org.id);
    expect(failed.map((t) => [t.kind, t.recipient])).toEqual([
      ["customer_receipt", customer],
      ["payment_received", owner.email],
    ]);
    for (const t of failed) {
      expect(t).toMatchObject({ attempts: 1, sentAt: null, lockedUntil: null });
      expect(t.lastError).toMatch(/ECONNREFUSED|connect/i);
      expect(t.lastError).not.toContain("s3cret-pass");
      expect(t.runAt.getTime()).toBeGreaterThanOrEqual(before + 60_000 - 1000);
      expect(t.runAt.getTime()).toBeLessThan(Date.now() + 61_000);
    }
    const paymentAfter = await db.payment.findUniqueOrThrow({ where: { reference } });
    expect(paymentAfter).toEqual(paymentBefore);
    expect(await db.ledgerTransaction.count({ where: { organizationId: org.id } })).toBe(ledgerBefore);

    await runJobsOnce(); // not due yet: nothing is tried
    expect((await tasksOf(org.id)).map((t) => t.attempts)).toEqual([1, 1]);

    const server = await smtpReceiver(smtpPort);
    open.push(server);
    await makeDue(org.id);
    await runJobsOnce();
    const sent = await tasksOf(org.id);
    expect(sent.map((t) => [t.attempts, t.sentAt !== null])).toEqual([
      [2, true],
      [2, true],
    ]);
    const subjects = server.messages
      .filter((m) => [customer, owner.email].includes(m.headers.to?.[0] ?? ""))
      .map((m) => m.headers.subject?.[0]);
    expect(subjects.sort()).toEqual([`Payment received: ₦150.00 for Fleet`, `Your receipt from ${org.name}: Fleet`]);

    await makeDue(org.id);
    await runJobsOnce(); // sent stays sent
    expect(server.messages.filter((m) => m.headers.to?.[0] === customer)).toHaveLength(1);
  });

  it("backs off 1 min, 5 min, 30 min, 2 h, 6 h, then gives up and keeps the row with its error", async () => {
    expect([1, 2, 3, 4, 5].map((n) => (nextMailAttemptAt(n, 0)?.getTime() ?? 0) / 1000)).toEqual([60, 300, 1800, 7200, 21600]);
    expect(nextMailAttemptAt(MAIL_MAX_ATTEMPTS, 0)).toBeNull();

    const { org, owner, customer } = await paidOrder();
    await runJobsOnce();
    await db.mailTask.updateMany({
      where: { organizationId: org.id },
      data: { attempts: MAIL_MAX_ATTEMPTS - 1, runAt: new Date(Date.now() - 1000) },
    });
    await runJobsOnce();
    const given = await tasksOf(org.id);
    expect(given.map((t) => [t.attempts, t.sentAt])).toEqual([
      [MAIL_MAX_ATTEMPTS, null],
      [MAIL_MAX_ATTEMPTS, null],
    ]);
    expect(given.every((t) => t.lastError?.length)).toBe(true);

    const server = await smtpReceiver(smtpPort);
    open.push(server);
    await makeDue(org.id);
    await runJobsOnce(); // given up: never tried again
    expect((await tasksOf(org.id)).map((t) => t.attempts)).toEqual([MAIL_MAX_ATTEMPTS, MAIL_MAX_ATTEMPTS]);
    expect(server.messages.filter((m) => [customer, owner.email].includes(m.headers.to?.[0] ?? ""))).toEqual([]);
  });

  it("keeps SMTP credentials out of the stored error", () => {
    const err = Object.assign(new Error("Invalid login for mailer:s3cret-pass@127.0.0.1 (smtp://mailer:s3cret-pass@host)"), {
      code: "EAUTH",
    });
    const text = describeMailError(err);
    expect(text).toMatch(/^EAUTH: Invalid login/);
    expect(text).not.toContain("s3cret-pass");
  });
});
