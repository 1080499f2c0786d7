// Authentication (401) and key permissions (403) over every endpoint, table-driven.
import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import { createKey, problem, restClient } from "../support/api";
import { ok, send, tenantState, tenantWithClients, type HttpMethod } from "./_helpers";

type T = Awaited<ReturnType<typeof tenantWithClients>>;

interface Operation {
  method: HttpMethod;
  path: (t: T) => string;
  body?: unknown;
}

const OPERATIONS: Operation[] = [
  { method: "GET", path: () => "business/api-keys" },
  { method: "POST", path: () => "business/api-keys", body: { name: "new", permissions: ["read", "write"] } },
  { method: "PUT", path: (t) => `business/api-keys/${t.writeKeyId}`, body: { name: "renamed", permissions: ["read"] } },
  { method: "DELETE", path: (t) => `business/api-keys/${t.writeKeyId}` },
  { method: "POST", path: (t) => `business/api-keys/${t.writeKeyId}/regenerate` },
  { method: "GET", path: () => "business/settings" },
  { method: "PUT", path: () => "business/settings", body: { notifications: { email: false, sms: true }, api: { rateLimit: 7 } } },
  { method: "GET", path: () => "organizations" },
  { method: "POST", path: () => "organizations", body: { name: "Other Ltd", email: "o@example.test" } },
  { method: "GET", path: (t) => `organizations/${t.organizationId}` },
  { method: "PUT", path: (t) => `organizations/${t.organizationId}`, body: { name: "Renamed Ltd" } },
  { method: "POST", path: (t) => `organizations/${t.organizationId}/switch` },
];

const label = (op: Operation) => `${op.method} ${op.path({ writeKeyId: "{id}", organizationId: "{accountID}" } as T)}`;
const randomKey = () =>
  `cd_live_${crypto
    .randomBytes(24)
    .toString("base64")
    .replace(/[^0-9A-Za-z]/g, "")
    .padEnd(32, "a")
    .slice(0, 32)}`;

test.describe("401 on every endpoint: missing, unknown, malformed and revoked keys; nothing changes", () => {
  for (const op of OPERATIONS) {
    test(label(op), async () => {
      const t = await tenantWithClients();
      const revoked = await createKey(t.account, ["read", "write"]);
      await ok(await t.write.delete(`business/api-keys/${revoked.id}`));
      const before = await tenantState(t);

      const cases: [Record<string, string>, string][] = [
        [{}, "missing_api_key"],
        [{ Authorization: `Bearer ${randomKey()}` }, "invalid_api_key"],
        [{ Authorization: "Bearer not-a-key" }, "invalid_api_key"],
        [{ Authorization: `Basic ${Buffer.from("user:pass").toString("base64")}` }, "invalid_api_key"],
        [{ Authorization: `Bearer ${revoked.key}` }, "revoked_api_key"],
      ];
      for (const [headers, code] of cases) {
        const client = await restClient(undefined, headers);
        await problem(await send(client, op.method, op.path(t), op.body), 401, code);
        await client.dispose();
      }
      expect(await tenantState(t)).toEqual(before);
    });
  }
});

test.describe("a read-only key: 403 insufficient_permissions on every mutation, nothing changes", () => {
  for (const op of OPERATIONS.filter((o) => o.method !== "GET")) {
    test(label(op), async () => {
      const t = await tenantWithClients();
      const before = await tenantState(t);
      await problem(await send(t.read, op.method, op.path(t), op.body), 403, "insufficient_permissions");
      expect(await tenantState(t)).toEqual(before);
    });
  }
});

test.describe("a read-only key: 200 on every GET", () => {
  for (const op of OPERATIONS.filter((o) => o.method === "GET")) {
    test(label(op), async () => {
      const t = await tenantWithClients();
      await ok(await send(t.read, op.method, op.path(t)));
    });
  }
});
