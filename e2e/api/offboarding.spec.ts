// Offboarding: a key never does more than its creator may do now. An ADMIN's
// key is revoked when the admin is removed (the dashboard's removal names the
// keys), and limited to what a MEMBER may do when the admin is demoted.
import { expect, test } from "@playwright/test";
import { problem } from "../support/api";
import { createKey, createPolicyFor, joinTeam, ok, restClient, tenantWithClients, trpc } from "./_helpers";

const newKeyBody = { data: { name: "Made by a departed admin", permissions: ["read", "write"] } };
const settingsBody = { data: { notifications: { sms: true } } };

test("an ADMIN removed from the organization: their key answers 401 revoked_api_key on key creation and settings", async () => {
  const t = await tenantWithClients();
  const joined = await joinTeam(t, "ADMIN");
  const adminKey = await createKey(joined.account, ["read", "write"], "Admin's server key");
  const client = await restClient(adminKey.key);
  await ok(await client.get("business/settings"));

  // The dashboard's removal dialog lists the keys first, and the removal answers the revoked ones.
  const listed = await trpc<{ id: string; name: string }[]>(t.account, "team.activeApiKeys", { id: joined.memberId }, "query");
  expect(listed.map((k) => k.name)).toEqual(["Admin's server key"]);
  const removed = await trpc<{ revokedApiKeys: { id: string; status: string }[] }>(t.account, "team.remove", {
    id: joined.memberId,
  });
  expect(removed.revokedApiKeys.map((k) => [k.id, k.status])).toEqual([[adminKey.id, "revoked"]]);

  const keysBefore = await ok(await t.write.get("business/api-keys?limit=100"));
  await problem(await client.post("business/api-keys", newKeyBody), 401, "revoked_api_key");
  await problem(await client.put("business/settings", settingsBody), 401, "revoked_api_key");
  await problem(await client.get(`organizations/${t.organizationId}/members`), 401, "revoked_api_key");
  const keysAfter = await ok(await t.write.get("business/api-keys?limit=100"));
  expect(keysAfter.data.map((k: { id: string }) => k.id)).toEqual(keysBefore.data.map((k: { id: string }) => k.id));
  expect(keysAfter.data.find((k: { id: string }) => k.id === adminKey.id).status).toBe("revoked");
  expect((await ok(await t.write.get("business/settings"))).notifications.sms).not.toBe(true);
});

test("the REST removal stays 204 with no body and revokes the same keys", async () => {
  const t = await tenantWithClients();
  const joined = await joinTeam(t, "ADMIN");
  const adminKey = await createKey(joined.account, ["read"]);
  const res = await t.write.delete(`organizations/${t.organizationId}/members/${joined.memberId}`);
  expect(res.status()).toBe(204);
  expect(await res.text()).toBe("");
  await problem(await (await restClient(adminKey.key)).get("business/settings"), 401, "revoked_api_key");
});

test("an ADMIN demoted to MEMBER: their key gets 403 forbidden on admin endpoints, still 200 on policy management", async () => {
  const t = await tenantWithClients();
  const joined = await joinTeam(t, "ADMIN");
  const adminKey = await createKey(joined.account, ["read", "write"]);
  const client = await restClient(adminKey.key);
  await ok(await client.put("business/settings", { data: { notifications: { sms: false } } }));

  await ok(await t.write.put(`organizations/${t.organizationId}/members/${joined.memberId}`, { data: { role: "MEMBER" } }));

  await problem(await client.post("business/api-keys", newKeyBody), 403, "forbidden");
  await problem(await client.put("business/settings", settingsBody), 403, "forbidden");
  await problem(await client.delete(`business/api-keys/${t.writeKeyId}`), 403, "forbidden");
  // What a MEMBER may do: read everything, manage policies.
  await ok(await client.get("business/settings"));
  const policy = await createPolicyFor(client);
  await ok(await client.put(`business/policies/${policy.id}`, { data: { name: "Renamed by a member's key" } }));
  // Promoted again, the same key may administer again.
  await ok(await t.write.put(`organizations/${t.organizationId}/members/${joined.memberId}`, { data: { role: "ADMIN" } }));
  await ok(await client.put("business/settings", settingsBody));
});
