// "Load sample data" pressed twice at once — two tabs, or two instances behind
// a load balancer — makes one sample business, not two: the load claims the
// test organization in one conditional UPDATE before it makes anything
// (organization.sampleDataLoadedAt). PostgreSQL run only: the second instance
// (playwright.config.ts starts it) shares the database with the first.
import { expect, test } from "@playwright/test";
import { signUp, trpc, trpcRaw, type Account } from "../support/api";
import { secondInstance } from "../support/second-instance";

const POSTGRES = process.env.E2E_DATABASE === "postgres";

test.describe("sample data across two instances", () => {
  test.skip(!POSTGRES, "the embedded database is owned by one process: a second instance cannot open it (PostgreSQL run only)");
  const other = secondInstance();
  test.beforeAll(() => other.start());

  test("two loads at once, one on each instance: one loads the sample business, the other adds nothing", async () => {
    test.setTimeout(120_000);
    const owner = await signUp();
    await trpc(owner, "organizations.setMode", { livemode: false });
    // The same session on both: the cookie is the host's (ports share cookies), the Origin the app's own.
    const onSecond = (account: Account) =>
      account.session.post(`${other.base}/api/trpc/sampleData.load`, { data: { json: null } });
    const [here, there] = await Promise.all([trpcRaw(owner, "sampleData.load"), onSecond(owner)]);
    expect(here.status(), await here.text()).toBe(200);
    expect(there.status(), await there.text()).toBe(200);
    const results = [(await here.json()).result.data.json, (await there.json()).result.data.json] as { created: boolean }[];
    expect(results.map((r) => r.created).sort()).toEqual([false, true]);

    // One light set: three policies, seven claims (the service test counts the rest).
    const policies = await trpc<{ data: unknown[] }>(owner, "policies.list", { limit: 100 }, "query");
    expect(policies.data).toHaveLength(3);
    // A third press, later, adds nothing either.
    expect(await trpc<{ created: boolean; policies: number; claims: number }>(owner, "sampleData.load")).toMatchObject({
      created: false,
      policies: 3,
      claims: 7,
    });
  });
});
