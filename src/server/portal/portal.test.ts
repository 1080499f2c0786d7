// The policyholder portal: signing in with an emailed one-time code (hashed,
// single use, 10 minutes, 5 tries, throttled, only for emails with cover,
// asked for with the same work whether or not the email has cover), and
// what a signed-in policyholder may see and do — their own records at that
// business only.
import pg from "pg";
import { describe, expect, it } from "vitest";
import type { Actor } from "@/server/actor";
import { CreateClaimInput } from "@/lib/schemas/claims";
import { submitClaim } from "@/server/claims/service";
import { db } from "@/server/db/client";
import { sendEmail } from "@/server/integrations/email";
import { mailsTo } from "@/server/mail/test-helpers";
import { payWithCard, SANDBOX_CARDS } from "@/server/payments/checkout";
import { CheckoutInput, InitializePaymentInput } from "@/lib/schemas/payments";
import { initializePayment } from "@/server/payments/service";
import type { WindowCounter } from "@/server/rest/rate-limit";
import { CreatePolicyInput } from "@/lib/schemas/policies";
import { createPolicy } from "@/server/policies/service";
import { codeOf, ownerWithOrganization, unique } from "@/test/fixtures";
import { PNG_BYTES, PDF_BYTES, upload } from "@/test/uploads";
import {
  CODE_MAX_ATTEMPTS,
  CODES_PER_EMAIL,
  CODES_PER_IP,
  composePortalCode,
  PORTAL_CODE_MAIL,
  portalSession,
  requestPortalCode,
  signInWithCode,
  SIGN_INS_PER_IP,
  signOutPortal,
  type PortalSession,
} from "./auth";
import { PortalClaimInput } from "@/lib/schemas/portal";
import {
  filePortalClaim,
  portalAttachment,
  portalCertificate,
  portalClaim,
  portalCoverage,
  portalOverview,
  portalPayment,
  renewCoverage,
} from "./service";

const card = () =>
  CheckoutInput.parse({ cardNumber: SANDBOX_CARDS.success, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: "123" });

async function business() {
  const { actor, org } = await ownerWithOrganization();
  const policy = await createPolicy(
    actor,
    CreatePolicyInput.parse({ name: "Shop cover", type: "property", duration: "monthly", price: "100" }),
  );
  return { actor, org, policy };
}

async function buy(actor: Actor, policy: { id: string; price: string }, email: string) {
  const p = await initializePayment(
    actor,
    InitializePaymentInput.parse({ amount: Number(policy.price), policyId: policy.id, email }),
  );
  await payWithCard(p.reference, card());
  const coverage = await db.coverage.findFirstOrThrow({ where: { organizationId: actor.organizationId, customerEmail: email } });
  return { reference: p.reference, coverage };
}

/** A counter of our own per test, so the throttle of one test never touches another. */
function memoryCounter(): WindowCounter {
  const counts = new Map<string, number>();
  return async (key, start, _w, by = 1) => {
    const k = `${key}:${start}`;
    counts.set(k, (counts.get(k) ?? 0) + by);
    return counts.get(k)!;
  };
}

type Observed = { query: (...args: unknown[]) => unknown; exec: (...args: unknown[]) => unknown };
type EmbeddedDb = Observed & { transaction: (cb: (tx: Observed) => Promise<unknown>) => Promise<unknown> };

/**
 * The SQL the database is sent while `work` runs — statement texts, values apart — observed at the
 * driver (pg's Client on PostgreSQL, the PGlite instance embedded); everything still runs for real.
 */
async function statementsDuring(work: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const record = (q: unknown) =>
    seen.push((typeof q === "string" ? q : String((q as { text?: unknown } | null)?.text)).replace(/\s+/g, " ").trim());
  const observe = (target: Observed): Observed =>
    new Proxy(target, {
      get(t, name) {
        const value = Reflect.get(t, name) as unknown;
        if ((name !== "query" && name !== "exec") || typeof value !== "function") return value;
        return (...args: unknown[]) => {
          record(args[0]);
          return (value as (...a: unknown[]) => unknown).apply(t, args);
        };
      },
    });
  await db.$queryRaw`SELECT 1`; // the database is open
  let restore: () => void;
  if (process.env.DATABASE_URL) {
    const proto = pg.Client.prototype as unknown as Observed;
    const query = proto.query;
    proto.query = function (this: unknown, ...args: unknown[]) {
      record(args[0]);
      return query.apply(this, args);
    };
    restore = () => void (proto.query = query);
  } else {
    const state = (globalThis as unknown as { __coverdeskDb: { opened: Promise<{ embedded: { pglite: unknown } }> } })
      .__coverdeskDb;
    const pglite = (await state.opened).embedded.pglite as EmbeddedDb;
    const own = { query: pglite.query, exec: pglite.exec, transaction: pglite.transaction };
    pglite.query = (...args) => (record(args[0]), own.query.apply(pglite, args));
    pglite.exec = (...args) => (record(args[0]), own.exec.apply(pglite, args));
    pglite.transaction = (cb) => (record("BEGIN"), own.transaction.call(pglite, (tx: Observed) => cb(observe(tx))));
    restore = () => {
      for (const name of ["query", "exec", "transaction"] as const) delete (pglite as Partial<EmbeddedDb>)[name];
    };
  }
  try {
    await work();
  } finally {
    restore();
  }
  return seen;
}

/**
 * What the mail worker does with this business's code requests (src/server/mail/sender.ts): composes
 * each, sends it or — no cover — deletes it. Only this business's tasks: other test files' stay theirs.
 */
async function sendCodes(organizationId: string): Promise<void> {
  const tasks = await db.mailTask.findMany({ where: { organizationId, kind: PORTAL_CODE_MAIL, sentAt: null } });
  for (const task of tasks) {
    const out = await composePortalCode(task);
    const mail = out?.channel === "email" ? out.email : null;
    if (mail) await sendEmail(mail);
    if (mail) await db.mailTask.update({ where: { id: task.id }, data: { sentAt: new Date(), attempts: 1 } });
    else await db.mailTask.delete({ where: { id: task.id } });
  }
}

/** The code from the newest sign-in mail to `email`, once the worker's part has run. */
async function codeMailedTo(organizationId: string, email: string, after = 0): Promise<string> {
  await sendCodes(organizationId);
  const mails = await mailsTo(email);
  const m = mails.length > after ? /sign-in code: (\d{6})/.exec(mails[mails.length - 1]!.text) : null;
  if (!m) throw new Error(`no sign-in code mailed to ${email}`);
  return m[1]!;
}

async function signedIn(organizationId: string, email: string): Promise<PortalSession> {
  const counter = memoryCounter();
  const before = (await mailsTo(email)).length;
  await requestPortalCode(organizationId, email, "203.0.113.9", { counter });
  const code = await codeMailedTo(organizationId, email, before);
  const { token } = await signInWithCode(organizationId, email, code, "203.0.113.9", { counter });
  return (await portalSession(organizationId, token))!;
}

describe("portal sign-in codes", () => {
  it("mails a code only to an email with cover, stores it hashed, and a right code opens a session bound to the business", async () => {
    const { actor, org, policy } = await business();
    const email = `holder-${unique()}@example.test`;
    await buy(actor, policy, email);
    const stranger = `nobody-${unique()}@example.test`;
    await requestPortalCode(org.id, stranger, null, { counter: memoryCounter() });
    await sendCodes(org.id);
    expect(await db.portalCode.count({ where: { organizationId: org.id, email: stranger } })).toBe(0);
    expect(await mailsTo(stranger)).toHaveLength(0);
    expect(await db.mailTask.count({ where: { recipient: stranger } })).toBe(0); // no trace of who asked

    await requestPortalCode(org.id, email, null, { counter: memoryCounter() });
    const code = await codeMailedTo(org.id, email);
    const row = await db.portalCode.findFirstOrThrow({ where: { organizationId: org.id, email } });
    expect(row.codeHash).not.toContain(code);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBeLessThanOrEqual(10 * 60_000 + 1000);

    const { token } = await signInWithCode(org.id, email, code, null, { counter: memoryCounter() });
    const session = await portalSession(org.id, token);
    expect(session).toMatchObject({ organizationId: org.id, email });
    expect(await db.portalSession.count({ where: { tokenHash: token } })).toBe(0); // only its hash is kept
    const other = await ownerWithOrganization();
    expect(await portalSession(other.org.id, token)).toBeNull(); // not another business's session

    // Single use.
    expect(await codeOf(signInWithCode(org.id, email, code, null, { counter: memoryCounter() }))).toBe("validation_failed");
    await signOutPortal(token);
    expect(await portalSession(org.id, token)).toBeNull();
  });

  it("ends a code after 5 wrong tries, after 10 minutes, and when a newer one is asked for", async () => {
    const { actor, org, policy } = await business();
    const email = `holder-${unique()}@example.test`;
    await buy(actor, policy, email);
    const counter = memoryCounter();

    await requestPortalCode(org.id, email, null, { counter });
    const code = await codeMailedTo(org.id, email);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < CODE_MAX_ATTEMPTS; i++)
      expect(await codeOf(signInWithCode(org.id, email, wrong, null, { counter }))).toBe("validation_failed");
    expect(await codeOf(signInWithCode(org.id, email, code, null, { counter }))).toBe("validation_failed");

    await requestPortalCode(org.id, email, null, { counter });
    const late = await codeMailedTo(org.id, email, 1);
    const eleven = new Date(Date.now() + 11 * 60_000);
    expect(await codeOf(signInWithCode(org.id, email, late, null, { counter, now: eleven }))).toBe("validation_failed");

    await requestPortalCode(org.id, email, null, { counter });
    const first = await codeMailedTo(org.id, email, 2);
    await requestPortalCode(org.id, email, null, { counter });
    const second = await codeMailedTo(org.id, email, 3);
    if (first !== second) expect(await codeOf(signInWithCode(org.id, email, first, null, { counter }))).toBe("validation_failed");
    await expect(signInWithCode(org.id, email, second, null, { counter })).resolves.toHaveProperty("token");
  });

  it("a code used by three requests at once opens one session", async () => {
    const { actor, org, policy } = await business();
    const email = `holder-${unique()}@example.test`;
    await buy(actor, policy, email);
    const counter = memoryCounter();
    await requestPortalCode(org.id, email, null, { counter });
    const code = await codeMailedTo(org.id, email);
    const results = await Promise.allSettled([1, 2, 3].map(() => signInWithCode(org.id, email, code, null, { counter })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await db.portalSession.count({ where: { organizationId: org.id, email } })).toBe(1);
  });

  it("throttles asking for codes per email, with or without cover alike", async () => {
    const { org } = await business();
    const counter = memoryCounter();
    const email = `nobody-${unique()}@example.test`;
    for (let i = 0; i < CODES_PER_EMAIL; i++) await requestPortalCode(org.id, email, null, { counter });
    expect(await codeOf(requestPortalCode(org.id, email, null, { counter }))).toBe("rate_limited");
  });

  it("asking does the same work whether or not the email has cover: one mail task of one shape; the worker decides", async () => {
    const { actor, org, policy } = await business();
    const insured = `holder-${unique()}@example.test`;
    await buy(actor, policy, insured);
    const stranger = `nobody-${unique()}@example.test`;
    const written = async (email: string) => {
      const before = {
        codes: await db.portalCode.count({ where: { organizationId: org.id } }),
        tasks: await db.mailTask.count(),
      };
      await requestPortalCode(org.id, email, "203.0.113.9", { counter: memoryCounter() });
      const task = await db.mailTask.findFirstOrThrow({ where: { organizationId: org.id, recipient: email } });
      return {
        codes: (await db.portalCode.count({ where: { organizationId: org.id } })) - before.codes,
        tasks: (await db.mailTask.count()) - before.tasks,
        task: { kind: task.kind, data: task.data, attempts: task.attempts, sentAt: task.sentAt, lockedUntil: task.lockedUntil },
      };
    };
    const [a, b] = [await written(insured), await written(stranger)];
    expect(a).toEqual(b);
    expect(a).toMatchObject({ codes: 0, tasks: 1, task: { kind: PORTAL_CODE_MAIL, data: {}, sentAt: null } });

    await sendCodes(org.id);
    expect(await db.portalCode.count({ where: { organizationId: org.id, email: insured } })).toBe(1);
    expect(await db.portalCode.count({ where: { organizationId: org.id, email: stranger } })).toBe(0);
    expect((await mailsTo(insured)).map((m) => m.headers.subject?.[0])).toEqual([
      expect.stringMatching(/^\d{6} is your .+ sign-in code$/),
    ]);
    expect(await mailsTo(stranger)).toHaveLength(0);
  });

  it("the database is sent the same statements for an email with cover as for one without", async () => {
    const { actor, org, policy } = await business();
    const insured = `holder-${unique()}@example.test`;
    await buy(actor, policy, insured);
    const stranger = `nobody-${unique()}@example.test`;
    // The shared counters (as in production), one address for both; each email asks for the first time.
    const ip = `203.0.113.${unique()}`;
    const a = await statementsDuring(() => requestPortalCode(org.id, insured, ip));
    const b = await statementsDuring(() => requestPortalCode(org.id, stranger, ip));
    expect(a.length).toBeGreaterThan(3); // the business, two counters, the mail task
    expect(b).toEqual(a);
    expect(a.join("\n")).not.toMatch(/"coverage"|"portal_code"/); // the email's cover is not looked up before the answer
  });

  it("a request the worker reaches after a code's life sends nothing", async () => {
    const { actor, org, policy } = await business();
    const email = `holder-${unique()}@example.test`;
    await buy(actor, policy, email);
    await requestPortalCode(org.id, email, null, { counter: memoryCounter() });
    const task = await db.mailTask.findFirstOrThrow({ where: { organizationId: org.id, recipient: email } });
    expect(await composePortalCode(task, new Date(Date.now() + 11 * 60_000))).toBeNull();
    expect(await db.portalCode.count({ where: { organizationId: org.id, email } })).toBe(0);
  });

  it("throttles per address, and an unknown address is one shared address, never unlimited", async () => {
    const { org } = await business();
    for (const ip of ["203.0.113.7", null]) {
      const counter = memoryCounter();
      for (let i = 0; i < CODES_PER_IP; i++) await requestPortalCode(org.id, `n${i}-${unique()}@example.test`, ip, { counter });
      expect(await codeOf(requestPortalCode(org.id, `over-${unique()}@example.test`, ip, { counter }))).toBe("rate_limited");
      // Another address is counted apart.
      await requestPortalCode(org.id, `other-${unique()}@example.test`, "198.51.100.7", { counter });
    }
    // Sign-ins per address are covered over HTTP (e2e/api/portal-limits.spec.ts); here, an unknown one.
    const counter = memoryCounter();
    for (let i = 0; i < SIGN_INS_PER_IP; i++) {
      expect(await codeOf(signInWithCode(org.id, `s${i}@example.test`, "123456", null, { counter }))).toBe("validation_failed");
    }
    expect(await codeOf(signInWithCode(org.id, "s@example.test", "123456", null, { counter }))).toBe("rate_limited");
  });

  it("an unknown or malformed business is not found", async () => {
    expect(await codeOf(requestPortalCode("no-such-org", "a@example.test", null, { counter: memoryCounter() }))).toBe(
      "not_found",
    );
    expect(await codeOf(requestPortalCode("../../etc", "a@example.test", null, { counter: memoryCounter() }))).toBe("not_found");
  });
});

describe("what a policyholder sees and does", () => {
  it("sees only their own coverages, payments and claims at that business; anything else is not found", async () => {
    const { actor, org, policy } = await business();
    const alice = `alice-${unique()}@example.test`;
    const bob = `bob-${unique()}@example.test`;
    const a = await buy(actor, policy, alice);
    const b = await buy(actor, policy, bob);
    const bobsClaim = await submitClaim(
      actor,
      CreateClaimInput.parse({ policyId: policy.id, type: "theft", description: "Bike", amount: 10, email: bob }),
    );
    const s = await signedIn(org.id, alice);

    const overview = await portalOverview(s);
    expect(overview.coverages.map((c) => c.id)).toEqual([a.coverage.id]);
    expect(overview.coverages[0]).toMatchObject({ status: "active", certificateNumber: a.coverage.certificateNumber });
    expect(overview.payments.map((p) => p.reference)).toEqual([a.reference]);
    expect(overview.claims).toEqual([]);

    expect(await codeOf(portalCoverage(s, b.coverage.id))).toBe("not_found");
    expect(await codeOf(portalCertificate(s, b.coverage.id))).toBe("not_found");
    expect(await codeOf(renewCoverage(s, b.coverage.id))).toBe("not_found");
    expect(await codeOf(portalClaim(s, bobsClaim.id))).toBe("not_found");
    expect(await codeOf(portalPayment(s, b.reference))).toBe("not_found");
    expect(
      await codeOf(
        filePortalClaim(
          s,
          PortalClaimInput.parse({ coverageId: b.coverage.id, type: "fire", description: "x", amount: "5" }),
          [],
        ),
      ),
    ).toBe("not_found");
    expect(await db.claim.count({ where: { organizationId: org.id } })).toBe(1);

    // The same email at another business sees nothing of this one.
    const other = await business();
    await buy(other.actor, other.policy, alice);
    const there = await signedIn(other.org.id, alice);
    expect(await codeOf(portalCoverage(there, a.coverage.id))).toBe("not_found");
  });

  it("files a claim with evidence on their coverage, in one go with its event, and follows it", async () => {
    const { actor, org, policy } = await business();
    const email = `holder-${unique()}@example.test`;
    const { coverage } = await buy(actor, policy, email);
    const s = await signedIn(org.id, email);
    const claim = await filePortalClaim(
      s,
      PortalClaimInput.parse({ coverageId: coverage.id, type: "theft", description: "Till stolen", amount: "250.50" }),
      [upload("file1", PNG_BYTES(), "till.png"), upload("file2", PDF_BYTES(), "police-report.pdf")],
    );
    expect(claim).toMatchObject({ coverageId: coverage.id, amount: "250.50", status: "submitted", attachmentCount: 2 });
    const row = await db.claim.findUniqueOrThrow({ where: { id: claim.id } });
    expect(row).toMatchObject({ organizationId: org.id, policyId: policy.id, customerEmail: email });
    const events = await db.event.findMany({ where: { organizationId: org.id, type: "claim.submitted", subject: claim.id } });
    expect(events).toHaveLength(1);
    // The event lists the evidence filed with the claim; the files came from the portal.
    const attachments = await db.claimAttachment.findMany({ where: { claimId: claim.id }, include: { file: true } });
    expect(attachments.map((a) => a.source)).toEqual(["portal", "portal"]);
    expect((events[0]!.data as { attachments: { id: string; fileName: string }[] }).attachments.map((a) => a.fileName)).toEqual([
      "till.png",
      "police-report.pdf",
    ]);

    const detail = await portalClaim(s, claim.id);
    expect(detail.history.map((h) => h.toStatus)).toEqual(["submitted"]);
    expect(detail.attachments.map((a) => [a.fileName, a.contentType])).toEqual([
      ["till.png", "image/png"],
      ["police-report.pdf", "application/pdf"],
    ]);
    const { body } = await portalAttachment(s, detail.attachments[0]!.id);
    expect(Buffer.from(await new Response(body).arrayBuffer()).equals(PNG_BYTES())).toBe(true);

    // Six files are refused before anything is stored.
    const six = Array.from({ length: 6 }, (_, i) => upload(`file${i + 1}`, PNG_BYTES(), `p${i}.png`));
    expect(
      await codeOf(
        filePortalClaim(s, PortalClaimInput.parse({ coverageId: coverage.id, type: "fire", description: "x", amount: "1" }), six),
      ),
    ).toBe("validation_failed");
    expect(await db.claim.count({ where: { organizationId: org.id } })).toBe(1);
  });

  it("renews through the hosted checkout, back to the coverage's page", async () => {
    const { actor, org, policy } = await business();
    const email = `holder-${unique()}@example.test`;
    const { coverage } = await buy(actor, policy, email);
    const s = await signedIn(org.id, email);
    const { reference, authorizationUrl } = await renewCoverage(s, coverage.id);
    expect(authorizationUrl).toContain(`/pay/${reference}`);
    const payment = await db.payment.findUniqueOrThrow({ where: { reference } });
    expect(payment).toMatchObject({ organizationId: org.id, email, policyId: policy.id, amountMinor: 10000n, status: "pending" });
    expect(payment.callbackUrl).toContain(`/portal/${org.id}/coverages/${coverage.id}`);
    await payWithCard(reference, card());
    const renewed = await db.coverage.findUniqueOrThrow({ where: { id: coverage.id } });
    expect(renewed.renewalCount).toBe(1);
    expect(renewed.endsAt.getTime()).toBeGreaterThan(coverage.endsAt.getTime());

    await db.policy.update({ where: { id: policy.id }, data: { isActive: false } });
    expect(await codeOf(renewCoverage(s, coverage.id))).toBe("policy_inactive");
  });

  it("downloads their certificate", async () => {
    const { actor, org, policy } = await business();
    const email = `holder-${unique()}@example.test`;
    const { coverage } = await buy(actor, policy, email);
    const s = await signedIn(org.id, email);
    const pdf = await portalCertificate(s, coverage.id);
    expect(Buffer.from(pdf.bytes).subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdf.fileName).toContain(coverage.certificateNumber);
  });
});
