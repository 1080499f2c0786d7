// The typed client (src/client, openapi-fetch over the types generated from the
// OpenAPI document) against the running app: what the README's quick start
// shows works as written — answers typed as declared, refusals as problems,
// Idempotency-Key passed through. `npm test` checks the types are current
// (`npm run client:check`); this checks they describe what the server does.
import { expect, test } from "@playwright/test";
import { createCoverdeskClient } from "@/client";
import { BASE_URL, unique } from "../support/api";
import { tenantWithClients } from "./_helpers";

test("create, read, list, refusals and an idempotent retry through the typed client", async () => {
  const t = await tenantWithClients();
  const coverdesk = createCoverdeskClient({ apiKey: t.writeKey, apiUrl: BASE_URL });
  const body = { name: `Shop cover ${unique()}`, type: "property", duration: "yearly", price: "150.00" } as const;

  const idempotencyKey = `client-${unique()}`;
  const created = await coverdesk.POST("/business/policies", { body, headers: { "Idempotency-Key": idempotencyKey } });
  expect(created.response.status).toBe(201);
  expect(created.error).toBeUndefined();
  const policy = created.data!;
  expect(policy).toMatchObject({ name: body.name, price: "150.00", duration: "yearly" });
  // The same key again: the first answer replayed, no second policy.
  const again = await coverdesk.POST("/business/policies", { body, headers: { "Idempotency-Key": idempotencyKey } });
  expect(again.data?.id).toBe(policy.id);

  const read = await coverdesk.GET("/business/policies/{id}", { params: { path: { id: policy.id } } });
  expect(read.data).toEqual(policy);
  const list = await coverdesk.GET("/business/policies", { params: { query: { limit: 100 } } });
  expect(list.data!.data.map((p) => p.id)).toEqual([policy.id]);

  // Bad input: no data, the problem with its field.
  const bad = await coverdesk.POST("/business/policies", { body: { ...body, price: "-1" } });
  expect(bad.data).toBeUndefined();
  expect(bad.response.status).toBe(422);
  expect(bad.error).toMatchObject({ code: "validation_failed" });
  expect(bad.error!.errors!.map((e) => e.path)).toEqual(["price"]);

  // Another organization's id: 404; a read-only key on a write: 403; no key that exists: 401.
  const elsewhere = await tenantWithClients();
  const theirs = await coverdesk.GET("/business/policies/{id}", { params: { path: { id: elsewhere.organizationId } } });
  expect([theirs.response.status, theirs.error?.code]).toEqual([404, "not_found"]);
  const readOnly = createCoverdeskClient({ apiKey: t.readKey, apiUrl: BASE_URL });
  const refused = await readOnly.POST("/business/policies", { body });
  expect([refused.response.status, refused.error?.code]).toEqual([403, "insufficient_permissions"]);
  const stranger = createCoverdeskClient({ apiKey: `cd_live_${"0".repeat(32)}`, apiUrl: BASE_URL });
  const unknown = await stranger.GET("/business/policies");
  expect(unknown.response.status).toBe(401);
  expect((await coverdesk.GET("/business/policies", { params: { query: { limit: 100 } } })).data!.data).toHaveLength(1);
});
