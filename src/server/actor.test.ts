// Pure: who may do what. The services call assertCan; these tables pin the rules.
import { describe, expect, it } from "vitest";
import { assertCan, assertKeyPermits, can, capabilities, type Actor, type Capability } from "@/server/actor";
import { AppError } from "@/server/errors";

const base = { organizationId: "org_1", userId: "usr_1" };
const owner: Actor = { ...base, role: "OWNER" };
const admin: Actor = { ...base, role: "ADMIN" };
const member: Actor = { ...base, role: "MEMBER" };
const readKey: Actor = { ...base, role: "OWNER", apiKey: { id: "key_1", permissions: ["read"] } };
const writeKey: Actor = { ...base, role: "OWNER", apiKey: { id: "key_1", permissions: ["read", "write"] } };
const writeOnlyKey: Actor = { ...base, role: "OWNER", apiKey: { id: "key_1", permissions: ["write"] } };
// Any key acts with its creator's current role, within the key's permissions.
const memberWithWriteKey: Actor = { ...base, role: "MEMBER", apiKey: { id: "key_1", permissions: ["write"] } };
const adminWithReadKey: Actor = { ...base, role: "ADMIN", apiKey: { id: "key_1", permissions: ["read"] } };
// A test key (or the dashboard's test view) works on the test twin; only the key is kept off the live account.
const testWriteKey: Actor = { ...writeKey, accountId: "org_1", organizationId: "org_1_test", livemode: false };
const testReadKey: Actor = { ...readKey, accountId: "org_1", organizationId: "org_1_test", livemode: false };
const ownerInTestView: Actor = { ...owner, accountId: "org_1", organizationId: "org_1_test", livemode: false };

// null = allowed; otherwise the AppError code assertCan throws.
const table: [string, Actor, Record<Capability, string | null>][] = [
  ["OWNER", owner, { read: null, manage: null, admin: null, "admin-read": null, account: null }],
  ["ADMIN", admin, { read: null, manage: null, admin: null, "admin-read": null, account: null }],
  ["MEMBER", member, { read: null, manage: null, admin: "forbidden", "admin-read": "forbidden", account: "forbidden" }],
  [
    "read key",
    readKey,
    {
      read: null,
      manage: "insufficient_permissions",
      admin: "insufficient_permissions",
      "admin-read": null,
      account: "insufficient_permissions",
    },
  ],
  ["read+write key", writeKey, { read: null, manage: null, admin: null, "admin-read": null, account: null }],
  [
    "write-only key (write implies read)",
    writeOnlyKey,
    { read: null, manage: null, admin: null, "admin-read": null, account: null },
  ],
  [
    "MEMBER through a write key",
    memberWithWriteKey,
    { read: null, manage: null, admin: "forbidden", "admin-read": "forbidden", account: "forbidden" },
  ],
  [
    "ADMIN through a read key",
    adminWithReadKey,
    {
      read: null,
      manage: "insufficient_permissions",
      admin: "insufficient_permissions",
      "admin-read": null,
      account: "insufficient_permissions",
    },
  ],
  ["test write key", testWriteKey, { read: null, manage: null, admin: null, "admin-read": null, account: "forbidden" }],
  [
    "test read key",
    testReadKey,
    {
      read: null,
      manage: "insufficient_permissions",
      admin: "insufficient_permissions",
      "admin-read": null,
      account: "insufficient_permissions",
    },
  ],
  ["OWNER in the dashboard's test view", ownerInTestView, { read: null, manage: null, admin: null, "admin-read": null, account: null }],
];

describe("can / assertCan", () => {
  for (const [who, actor, expected] of table) {
    for (const capability of ["read", "manage", "admin", "admin-read", "account"] as const) {
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

describe("capabilities (what the dashboard shows)", () => {
  it("are can() for each capability", () => {
    expect(capabilities(owner)).toEqual({ manage: true, admin: true, adminRead: true });
    expect(capabilities(member)).toEqual({ manage: true, admin: false, adminRead: false });
    expect(capabilities(memberWithWriteKey)).toEqual({ manage: true, admin: false, adminRead: false });
    expect(capabilities(adminWithReadKey)).toEqual({ manage: false, admin: false, adminRead: true });
  });
});

describe("assertKeyPermits (the REST adapter's check before the body)", () => {
  it("refuses a mutation to a key without write, with the same code as assertCan", () => {
    expect(() => assertKeyPermits(readKey.apiKey, "read")).not.toThrow();
    expect(() => assertKeyPermits(writeKey.apiKey, "write")).not.toThrow();
    expect(() => assertKeyPermits(undefined, "write")).not.toThrow();
    expect(() => assertKeyPermits(readKey.apiKey, "write")).toThrow(
      expect.objectContaining({ code: "insufficient_permissions", status: 403 }),
    );
  });
});
