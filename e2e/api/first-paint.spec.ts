// The dashboard's main pages open with their data (issue 31): the server
// component loads what the page shows first through the tRPC server caller and
// sends it with the HTML, so the first paint is the content, not a skeleton.
// Asked for as a browser would (the session's cookie), the HTML of home,
// payments, policies, claims and earnings already holds the organization's
// records — and only its own: another organization's session sees none of them.
import { expect, test } from "@playwright/test";
import { BASE_URL, signUp, unique } from "../support/api";
import { buyPolicy, createPolicyFor, ok, tenantWithClients } from "./_helpers";

test("home, payments, policies, claims and earnings carry their first data in the HTML, for the session's organization only", async () => {
  test.setTimeout(120_000);
  const t = await tenantWithClients();
  const policyName = `First paint ${unique()}`;
  const policy = await createPolicyFor(t.write, { name: policyName, price: "150.00" });
  const email = `first-paint-${unique()}@example.test`;
  const payment = await buyPolicy(t.write, policy, email);
  const description = `Burst pipe in the stock room ${unique()}`;
  await ok(await t.write.post("claims", { data: { policyId: policy.id, type: "flood", description, amount: 40 } }), 201);

  const html = async (session: typeof t.account.session, path: string) => {
    const res = await session.get(path, { maxRedirects: 0 });
    expect(res.status(), path).toBe(200);
    return res.text();
  };
  const pages = {
    "/policies": policyName,
    "/payments": payment.reference as string,
    "/claims": description,
    // The net revenue (150.00 less the sandbox's fee) shows on the balance cards; the sale is in the transactions.
    "/earnings": payment.reference as string,
    // The revenue of the last 30 days, on the home's first stat card.
    "/": 'data-testid="stat-revenue"',
  };
  for (const [path, expected] of Object.entries(pages)) {
    const body = await html(t.account.session, path);
    expect(body, `${path} without its first data`).toContain(expected);
  }
  expect(await html(t.account.session, "/")).toMatch(/data-testid="stat-revenue"[^>]*>[^<]*150/);

  // Another organization's member gets their own (empty) pages: none of these records.
  const stranger = await signUp();
  for (const [path, expected] of Object.entries(pages)) {
    if (path === "/") continue;
    expect(await html(stranger.session, path), path).not.toContain(expected);
  }
});

// A page whose first data the server cannot load (signed out here: the layout redirects while the page's own
// loads fail) is answered at once; the browser asks again for what is missing. The server's loads used to be
// retried twice, 1 s and 2 s apart, so the redirect's answer stayed open 3 s.
test("signed out, every dashboard page's redirect to the sign-in page is answered whole at once", async () => {
  for (const path of ["/", "/payments", "/policies", "/claims", "/earnings"]) {
    const started = performance.now();
    const res = await fetch(`${BASE_URL}${path}`, { redirect: "manual" });
    await res.arrayBuffer(); // the whole answer, not its head
    const ms = performance.now() - started;
    expect(res.status, path).toBe(307);
    expect(res.headers.get("location"), path).toMatch(/\/sign-in/);
    expect(ms, `${path}: the answer took ${ms.toFixed(0)} ms`).toBeLessThan(1_500);
  }
});
