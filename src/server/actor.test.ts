// Pure: who may do what. The services call assertCan; these tables pin the rules.
import { describe, expect, it } from "vitest";
import { assertCan, can, type Actor, type Capability } from "@/server/actor";
import { AppError } from "@/server/errors";

const base = { organizationId: "org_1", userId: "usr_1" };
const owner: Actor = { ...base, role: "OWNER" };
const admin: Actor = { ...base, role: "ADMIN" };
const member: Actor = { ...base, role: "MEMBER" };
const readKey: Actor = { ...base, role: null, apiKey: { id: "key_1", permissions: ["read"] } };
const writeKey: Actor = { ...base, role: null, apiKey: { id: "key_1", permissions: ["read", "write"] } };
const writeOnlyKey: Actor = { ...base, role: null, apiKey: { id: "key_1", permissions: ["write"] } };
// A user-scoped API call: the key creator's role plus the key's permissions.
const memberWithWriteKey: Actor = { ...base, role: "MEMBER", apiKey: { id: "key_1", permissions: ["write"] } };
const adminWithReadKey: Actor = { ...base, role: "ADMIN", apiKey: { id: "key_1", permissions: ["read"] } };

// null = allowed; otherwise the AppError code assertCan throws.
const table: [string, Actor, Record<Capability, string | null>][] = [
  ["OWNER", owner, { read: null, manage: null, admin: null, "admin-read": null }],
  ["ADMIN", admin, { read: null, manage: null, admin: null, "admin-read": null }],
  ["MEMBER", member, { read: null, manage: null, admin: "forbidden", "admin-read": "forbidden" }],
  [
    "read key",
    readKey,
    { read: null, manage: "insufficient_permissions", admin: "insufficient_permissions", "admin-read": null },
  ],
  ["read+write key", writeKey, { read: null, manage: null, admin: null, "admin-read": null }],
  ["write-only key (write implies read)", writeOnlyKey, { read: null, manage: null, admin: null, "admin-read": null }],
  ["MEMBER through a write key", memberWithWriteKey, { read: null, manage: null, admin: "forbidden", "admin-read": "forbidden" }],
  [
    "ADMIN through a read key",
    adminWithReadKey,
    { read: null, manage: "insufficient_permissions", admin: "insufficient_permissions", "admin-read": null },
  ],
];

describe("can / assertCan", () => {
  for (const [who, actor, expected] of table) {
    for (const capability of ["read", "manage", "admin", "admin-read"] as const) {
      const code = expected[capability];
      it(`${who} ${code ? "may not" : "may"} ${capability}`, () => {
        expect(can(actor, capability)).toBe(code === null);
        if (code === null) {
          expect(() => assertCan(actor, capability)).not.toThrow();
        } else {
          let thrown: unknown;
          try {
            assertCan(actor, capability);
          } catch (err) {
            thrown = err;
          }
          expect(thrown).toBeInstanceOf(AppError);
          expect((thrown as AppError).code).toBe(code);
          expect((thrown as AppError).status).toBe(403);
        }
      });
    }
  }
});
