// From an event's commit on one instance to its first delivery attempt by
// another instance's job runner (issue 24, item 5): the goal is under 100 ms
// at the 95th percentile on a quiet machine; the test bounds the median, which
// the specs running beside it move least. PostgreSQL run only (`npm run test:e2e:pg`): a second instance
// of the built app runs on the same database with WORKER=false (playwright.config.ts starts it), so it
// only commits; the instance Playwright started runs the only job runner and
// must deliver to a receiver here. Without the database's NOTIFY that runner
// would find each event at its next poll (up to 1 s later).
//
// The commit is timed by this spec's own LISTEN on the runners' channel (the
// event row's insert trigger notifies at commit, as it does for the runners),
// which if anything makes the commit look later than it was by the
// notification's trip; the spec also reports, and bounds, the time from the
// request's start, which includes the whole request.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { restClient } from "../support/api";
import { secondInstance } from "../support/second-instance";
import { createPolicyFor, ok, tenantWithClients } from "./_helpers";

const POSTGRES = process.env.E2E_DATABASE === "postgres";
const EVENTS = 40;

const now = () => performance.timeOrigin + performance.now();
const round = (ms: number) => Math.round(ms * 10) / 10;
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((sorted.length * p) / 100) - 1)]!;
};

test.describe("the job runner across two instances on one PostgreSQL", () => {
  test.skip(!POSTGRES, "the embedded database is owned by one process: a second instance cannot open it (PostgreSQL run only)");
  test.describe.configure({ mode: "serial" });

  // Started by playwright.config.ts with WORKER=false.
  const committer = secondInstance();
  const listener = new pg.Client({ connectionString: process.env.DATABASE_URL });
  const commits: number[] = [];

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    await committer.start();
    await listener.connect();
    listener.on("notification", (msg) => {
      if (msg.payload === "event") commits.push(now());
    });
    await listener.query("LISTEN coverdesk_jobs");
  });

  test.afterAll(async () => {
    await listener.end().catch(() => {});
  });

  test(`from an event's commit on instance A (WORKER=false) to its first delivery attempt by instance B's runner: woken at the commit, not at the next poll (${EVENTS} events)`, async () => {
    test.setTimeout(120_000);
    const t = await tenantWithClients();
    // A receiver that notes when each delivery arrived.
    const arrivals: { at: number; claimId: string }[] = [];
    const rx = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const at = now();
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { data: { id: string } };
        arrivals.push({ at, claimId: body.data.id });
        res.writeHead(200).end("ok");
      });
    });
    await new Promise<void>((resolve) => rx.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(rx.address() as AddressInfo).port}/hooks`;
    const policy = await createPolicyFor(t.write);
    await ok(await t.write.post("business/webhooks", { data: { url, events: ["claim.submitted"] } }), 201);
    const onA = await restClient(t.writeKey, {}, committer.base);

    const fromCommit: number[] = [];
    const fromRequest: number[] = [];
    try {
      for (let n = 0; n < EVENTS; n++) {
        const delivered = arrivals.length;
        const notified = commits.length;
        const started = now();
        const claim = await ok(
          await onA.post("claims", {
            data: { policyId: policy.id, type: "theft", description: `Laptop number ${n} stolen`, amount: 100 },
          }),
          201,
        );
        const deadline = Date.now() + 5_000;
        while (arrivals.length === delivered) {
          if (Date.now() > deadline) throw new Error(`claim ${n}: no delivery within 5 s`);
          await new Promise((r) => setTimeout(r, 5));
        }
        const arrival = arrivals[delivered]!;
        expect(arrival.claimId).toBe(claim.id);
        const committed = commits[notified];
        expect(committed, `the commit of claim ${n} was notified`).toBeDefined();
        fromCommit.push(arrival.at - committed!);
        fromRequest.push(arrival.at - started);
      }
    } finally {
      await onA.dispose();
      rx.closeAllConnections();
      await new Promise((r) => rx.close(r));
    }

    const stats = (values: number[]) => ({
      p50: round(percentile(values, 50)),
      p95: round(percentile(values, 95)),
      max: round(Math.max(...values)),
    });
    const summary = { events: EVENTS, commitToFirstAttempt: stats(fromCommit), requestStartToFirstAttempt: stats(fromRequest) };
    console.log(`job wake-up across two instances, ms: ${JSON.stringify(summary)}`);
    // The goal is p95 < 100 ms on a quiet machine (README, "Background jobs"; 33 ms median, 54 ms p95 measured
    // alone). Here two other workers' specs run beside this one on the same 2 cores — the fuzz spec's 12
    // concurrent requests to the runner's instance hold its connection pool, and the runner waits its turn
    // (a median of 110–160 ms and a 95th percentile near 1 s measured so) — and their events notify on the
    // same channel. So the test bounds the median, which only the wake-up explains: without it, B's 1 s poll
    // would put the median near 500 ms.
    expect(summary.commitToFirstAttempt.p50).toBeLessThan(400);
    expect(summary.requestStartToFirstAttempt.p50).toBeLessThan(500);
  });
});
