// A burst larger than the database can take at once (issue 23: 400 simultaneous
// POST /claims answered 122 × 500 P2028 on PostgreSQL). Every request must
// either complete (201) or be shed cleanly — 503 `service_unavailable` with
// Retry-After — never 500; and exactly the answered claims exist. Half the
// requests carry an Idempotency-Key (one transaction per request, see
// src/server/rest/idempotency.ts), half do not. Runs on the embedded database
// (`npm run test:e2e`) and on PostgreSQL (`npm run test:e2e:pg`).
import { expect, test } from "@playwright/test";
import { BASE_URL, unique } from "../support/api";
import { createPolicyFor, listAll, tenantWithClients } from "./_helpers";

/* eslint-disable @typescript-eslint/no-explicit-any */

const BURST = 400;

test("400 simultaneous POST /claims: each is 201 or 503 with Retry-After, never 500; exactly the 201s exist", async () => {
  test.setTimeout(90_000);
  const t = await tenantWithClients();
  // The organization's REST limit must not be what sheds the burst.
  const limit = await t.write.put("business/settings", { data: { api: { rateLimit: 10_000 } } });
  expect(limit.status(), await limit.text()).toBe(200);
  const policy = await createPolicyFor(t.write);
  const run = unique();

  const started = Date.now();
  const answers = await Promise.all(
    Array.from({ length: BURST }, async (_, i) => {
      const res = await fetch(`${BASE_URL}/api/v1/claims`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${t.writeKey}`,
          "content-type": "application/json",
          ...(i % 2 === 0 ? { "idempotency-key": `burst-${run}-${i}` } : {}),
        },
        body: JSON.stringify({ policyId: policy.id, type: "theft", description: `Burst ${run} #${i}`, amount: 100 }),
      });
      const text = await res.text();
      return { status: res.status, retryAfter: res.headers.get("retry-after"), text };
    }),
  );
  const elapsedMs = Date.now() - started;

  const byStatus: Record<number, number> = {};
  for (const a of answers) byStatus[a.status] = (byStatus[a.status] ?? 0) + 1;
  console.log(`burst of ${BURST} POST /claims: ${JSON.stringify(byStatus)} in ${elapsedMs} ms`);
  const unexpected = answers.filter((a) => a.status !== 201 && a.status !== 503);
  expect(unexpected.slice(0, 3), `statuses ${JSON.stringify(byStatus)}`).toEqual([]);
  for (const shed of answers.filter((a) => a.status === 503)) {
    expect(Number(shed.retryAfter)).toBeGreaterThan(0);
    expect(JSON.parse(shed.text)).toMatchObject({ status: 503, code: "service_unavailable" });
  }
  // Shedding is prompt, not a queue that outlives the clients: well under the 90 s test budget on 2 cores.
  expect(elapsedMs).toBeLessThan(60_000);

  const created = answers.filter((a) => a.status === 201).map((a) => (JSON.parse(a.text) as { id: string }).id);
  const claims = (await listAll(t.read, "claims")).filter((c: any) => String(c.description).startsWith(`Burst ${run} `));
  expect(claims.map((c: any) => c.id).sort()).toEqual(created.sort());
});
