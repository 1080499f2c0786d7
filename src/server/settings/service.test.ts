// Settings against a real database: defaults, merge semantics, tenancy, roles.
import { describe, expect, it } from "vitest";
import type { Actor } from "@/server/actor";
import { db } from "@/server/db/client";
import { AppError, type ErrorCode } from "@/server/errors";
import { addMember, ownerWithOrganization } from "@/test/fixtures";
import { UpdateSettingsInput } from "./schemas";
import { getSettings, updateSettings } from "./service";

async function expectAppError(promise: Promise<unknown>, code: ErrorCode) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, `expected AppError ${code}`).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe(code);
}

const DEFAULTS = { notifications: { email: true, sms: false }, api: { rateLimit: 600 } };

describe("getSettings", () => {
  it("starts with the defaults", async () => {
    const { actor } = await ownerWithOrganization();
    await expect(getSettings(actor)).resolves.toEqual(DEFAULTS);
  });

  it("is readable by a MEMBER and a read key", async () => {
    const { org, actor: owner } = await ownerWithOrganization();
    await updateSettings(owner, { api: { rateLimit: 42 } });
    const member = (await addMember(org.id, "MEMBER")).actor;
    const readKey: Actor = { ...owner, apiKey: { id: "key_r", permissions: ["read"] } };
    for (const actor of [member, readKey]) {
      await expect(getSettings(actor)).resolves.toEqual({ ...DEFAULTS, api: { rateLimit: 42 } });
    }
  });

  it("answers not_found for an organization that does not exist", async () => {
    const { actor } = await ownerWithOrganization();
    await expectAppError(getSettings({ ...actor, organizationId: "no-such-org" }), "not_found");
  });
});

describe("updateSettings merges the given fields", () => {
  it("keeps every field that is left out", async () => {
    const { actor } = await ownerWithOrganization();

    await expect(updateSettings(actor, { notifications: { sms: true } })).resolves.toEqual({
      notifications: { email: true, sms: true },
      api: { rateLimit: 600 },
    });
    await expect(updateSettings(actor, { api: { rateLimit: 5 } })).resolves.toEqual({
      notifications: { email: true, sms: true },
      api: { rateLimit: 5 },
    });
    await expect(updateSettings(actor, { notifications: { email: false } })).resolves.toEqual({
      notifications: { email: false, sms: true },
      api: { rateLimit: 5 },
    });
    await expect(updateSettings(actor, {})).resolves.toEqual({
      notifications: { email: false, sms: true },
      api: { rateLimit: 5 },
    });
    await expect(getSettings(actor)).resolves.toEqual({ notifications: { email: false, sms: true }, api: { rateLimit: 5 } });
    const row = await db.organization.findUniqueOrThrow({ where: { id: actor.organizationId } });
    expect([row.notifyEmail, row.notifySms, row.apiRateLimit]).toEqual([false, true, 5]);
  });

  it("changes the actor's organization only", async () => {
    const a = await ownerWithOrganization();
    const b = await ownerWithOrganization();
    await updateSettings(a.actor, { notifications: { email: false, sms: true }, api: { rateLimit: 7 } });
    await expect(getSettings(b.actor)).resolves.toEqual(DEFAULTS);
  });
});

describe("who may change settings", () => {
  type Who = "OWNER" | "ADMIN" | "MEMBER" | "read key" | "write key";
  const cases: [Who, ErrorCode | null][] = [
    ["OWNER", null],
    ["ADMIN", null],
    ["write key", null],
    ["MEMBER", "forbidden"],
    ["read key", "insufficient_permissions"],
  ];
  for (const [who, code] of cases) {
    it(`${who} → ${code ?? "allowed"}`, async () => {
      const { org, actor: owner } = await ownerWithOrganization();
      const actor: Actor =
        who === "OWNER"
          ? owner
          : who === "ADMIN" || who === "MEMBER"
            ? (await addMember(org.id, who)).actor
            : { ...owner, apiKey: { id: "key_x", permissions: who === "read key" ? ["read"] : ["read", "write"] } };
      const change = updateSettings(actor, { api: { rateLimit: 99 } });
      if (code === null) {
        await expect(change).resolves.toMatchObject({ api: { rateLimit: 99 } });
      } else {
        await expectAppError(change, code);
        await expect(getSettings(owner)).resolves.toEqual(DEFAULTS);
      }
    });
  }
});

describe("UpdateSettingsInput (the adapters' parser)", () => {
  it.each([1, 600, 100_000])("accepts rateLimit %s", (rateLimit) => {
    expect(UpdateSettingsInput.safeParse({ api: { rateLimit } }).success).toBe(true);
  });
  it.each([
    ["rateLimit 0", { api: { rateLimit: 0 } }],
    ["rateLimit 100001", { api: { rateLimit: 100_001 } }],
    ["a fractional rateLimit", { api: { rateLimit: 1.5 } }],
    ["a string rateLimit", { api: { rateLimit: "10" } }],
    ["a non-boolean flag", { notifications: { email: "yes" } }],
    ["an unknown field", { theme: "dark" }],
    ["an unknown nested field", { notifications: { push: true } }],
  ])("rejects %s", (_, input) => {
    expect(UpdateSettingsInput.safeParse(input).success).toBe(false);
  });
});
