// Settings against a real database: defaults, merge semantics, tenancy, roles.
import { describe, expect, it } from "vitest";
import type { Actor } from "@/server/actor";
import { db } from "@/server/db/client";
import { AppError, type ErrorCode } from "@/server/errors";
import { addMember, ownerWithOrganization } from "@/test/fixtures";
import { filesOnDisk, JPEG_BYTES, PDF_BYTES, PNG_BYTES, storedFileIds, upload } from "@/test/uploads";
import { UpdateSettingsInput, UploadLogoInput } from "./schemas";
import { getSettings, removeLogo, setLogo, updateSettings } from "./service";

async function expectAppError(promise: Promise<unknown>, code: ErrorCode) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, `expected AppError ${code}`).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe(code);
}

const EXTRAS = { reminders: { daysBefore: [14, 3] }, branding: { accentColor: null, logo: null } };
const DEFAULTS = { notifications: { email: true, sms: false }, api: { rateLimit: 600 }, ...EXTRAS };

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
      ...EXTRAS,
    });
    await expect(updateSettings(actor, { api: { rateLimit: 5 } })).resolves.toEqual({
      notifications: { email: true, sms: true },
      api: { rateLimit: 5 },
      ...EXTRAS,
    });
    await expect(updateSettings(actor, { notifications: { email: false } })).resolves.toEqual({
      notifications: { email: false, sms: true },
      api: { rateLimit: 5 },
      ...EXTRAS,
    });
    await expect(updateSettings(actor, {})).resolves.toEqual({
      notifications: { email: false, sms: true },
      api: { rateLimit: 5 },
      ...EXTRAS,
    });
    await expect(getSettings(actor)).resolves.toEqual({
      notifications: { email: false, sms: true },
      api: { rateLimit: 5 },
      ...EXTRAS,
    });
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

describe("renewal reminder days", () => {
  it("are stored largest first, may be emptied, and are shared with the test twin", async () => {
    const { org, actor } = await ownerWithOrganization();
    await expect(updateSettings(actor, UpdateSettingsInput.parse({ reminders: { daysBefore: [1, 30, 7] } }))).resolves.toMatchObject(
      { reminders: { daysBefore: [30, 7, 1] } },
    );
    expect((await db.organization.findUniqueOrThrow({ where: { id: org.id } })).reminderDays).toEqual([30, 7, 1]);
    const twin = await db.organization.findUniqueOrThrow({ where: { liveOrganizationId: org.id } });
    const testActor: Actor = { ...actor, organizationId: twin.id, accountId: org.id, livemode: false };
    await expect(getSettings(testActor)).resolves.toMatchObject({ reminders: { daysBefore: [30, 7, 1] } });
    // Changed in test mode: the account's days change (settings are the account's).
    await updateSettings(testActor, { reminders: { daysBefore: [] } });
    await expect(getSettings(actor)).resolves.toMatchObject({ reminders: { daysBefore: [] } });
    // Other fields left out keep their value.
    await updateSettings(actor, { api: { rateLimit: 9 } });
    await expect(getSettings(actor)).resolves.toMatchObject({ reminders: { daysBefore: [] }, api: { rateLimit: 9 } });
  });

  it.each([
    ["a day of 0", [0], "reminders.daysBefore.0", "Enter whole numbers of days from 1 to 90"],
    ["a day of 91", [14, 91], "reminders.daysBefore.1", "Enter whole numbers of days from 1 to 90"],
    ["a fractional day", [1.5], "reminders.daysBefore.0", "Enter whole numbers of days from 1 to 90"],
    ["a day as text", ["3"], "reminders.daysBefore.0", "Enter whole numbers of days from 1 to 90"],
    ["six days", [1, 2, 3, 4, 5, 6], "reminders.daysBefore", "Give at most 5 items"],
    ["a repeated day", [3, 3], "reminders.daysBefore", "List each day once"],
    ["not a list", 14, "reminders.daysBefore", "Give a list of days, like [14, 3]"],
  ])("refuses %s, saying why", (_, daysBefore, path, message) => {
    const parsed = UpdateSettingsInput.safeParse({ reminders: { daysBefore } });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => [i.path.join("."), i.message])).toContainEqual([path, message]);
  });

  it("accepts 1 and 90, and five distinct days", () => {
    expect(UpdateSettingsInput.safeParse({ reminders: { daysBefore: [90, 60, 30, 7, 1] } }).success).toBe(true);
  });
});

describe("branding", () => {
  it("accent colour: #rrggbb stored lower-case, null for Coverdesk's own", async () => {
    const { actor } = await ownerWithOrganization();
    await expect(updateSettings(actor, UpdateSettingsInput.parse({ branding: { accentColor: "#AA11cc" } }))).resolves.toMatchObject({
      branding: { accentColor: "#aa11cc", logo: null },
    });
    await updateSettings(actor, UpdateSettingsInput.parse({ notifications: { sms: true } }));
    await expect(getSettings(actor)).resolves.toMatchObject({ branding: { accentColor: "#aa11cc" } });
    await expect(updateSettings(actor, UpdateSettingsInput.parse({ branding: { accentColor: null } }))).resolves.toMatchObject({
      branding: { accentColor: null },
    });
  });

  it.each(["red", "#abc", "#12345g", "#1234567", "1d4ed8", ""])("refuses the colour %j", (accentColor) => {
    const parsed = UpdateSettingsInput.safeParse({ branding: { accentColor } });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["branding.accentColor", "Enter a colour as # and 6 hex digits, like #1d4ed8"],
    ]);
  });

  it("a logo: PNG or JPEG, replacing deletes the old file (row and bytes), removing deletes it", async () => {
    const { org, actor } = await ownerWithOrganization();
    const first = await setLogo(actor, UploadLogoInput.parse({ file: upload("file", PNG_BYTES(), "logo.png") }));
    expect(first.branding.logo).toMatchObject({ fileName: "logo.png", contentType: "image/png", size: PNG_BYTES().length });
    const firstRow = await db.organization.findUniqueOrThrow({ where: { id: org.id } });
    expect(await storedFileIds(org.id)).toEqual([firstRow.logoFileId]);
    expect(first.branding.logo!.url).toMatch(new RegExp(`/api/files/${firstRow.logoFileId}$`));
    expect(await filesOnDisk(org.id)).toEqual([firstRow.logoFileId]);

    const second = await setLogo(actor, UploadLogoInput.parse({ file: upload("file", JPEG_BYTES(), "logo.jpg") }));
    expect(second.branding.logo).toMatchObject({ fileName: "logo.jpg", contentType: "image/jpeg" });
    const secondRow = await db.organization.findUniqueOrThrow({ where: { id: org.id } });
    expect(secondRow.logoFileId).not.toBe(firstRow.logoFileId);
    expect(await storedFileIds(org.id)).toEqual([secondRow.logoFileId]);
    expect(await filesOnDisk(org.id)).toEqual([secondRow.logoFileId]);

    await expect(removeLogo(actor)).resolves.toMatchObject({ branding: { logo: null } });
    expect(await storedFileIds(org.id)).toEqual([]);
    expect(await filesOnDisk(org.id)).toEqual([]);
    // Nothing to remove: still fine.
    await expect(removeLogo(actor)).resolves.toMatchObject({ branding: { logo: null } });
  });

  it("a test-mode admin sets the account's logo (one logo for both modes)", async () => {
    const { org, actor } = await ownerWithOrganization();
    const twin = await db.organization.findUniqueOrThrow({ where: { liveOrganizationId: org.id } });
    const testActor: Actor = { ...actor, organizationId: twin.id, accountId: org.id, livemode: false };
    await setLogo(testActor, UploadLogoInput.parse({ file: upload("file", PNG_BYTES()) }));
    const row = await db.organization.findUniqueOrThrow({ where: { id: org.id } });
    expect(row.logoFileId).not.toBeNull();
    expect(await storedFileIds(org.id)).toEqual([row.logoFileId]);
    expect(await storedFileIds(twin.id)).toEqual([]);
    await expect(getSettings(actor)).resolves.toMatchObject({ branding: { logo: { contentType: "image/png" } } });
  });

  it("refuses a PDF (415) and an image over 1 MiB (413), leaving nothing behind", async () => {
    const { org, actor } = await ownerWithOrganization();
    expect(await codeOfLogo(setLogo(actor, UploadLogoInput.parse({ file: upload("file", PDF_BYTES()) })))).toEqual([
      "unsupported_media_type",
      [{ path: "file", message: "Choose a PNG or JPEG image" }],
    ]);
    const big = Buffer.concat([PNG_BYTES(), Buffer.alloc(1024 * 1024)]);
    expect(await codeOfLogo(setLogo(actor, UploadLogoInput.parse({ file: upload("file", big) })))).toEqual([
      "payload_too_large",
      [{ path: "file", message: "Choose an image of at most 1024 KiB" }],
    ]);
    expect(await storedFileIds(org.id)).toEqual([]);
    expect(await filesOnDisk(org.id)).toEqual([]);
    await expect(getSettings(actor)).resolves.toMatchObject({ branding: { logo: null } });
  });

  it("only owners, admins and write keys change the logo", async () => {
    const { org, actor } = await ownerWithOrganization();
    const member = (await addMember(org.id, "MEMBER")).actor;
    const readKey: Actor = { ...actor, apiKey: { id: "key_r", permissions: ["read"] } };
    await expectAppError(setLogo(member, { file: upload("file", PNG_BYTES()) }), "forbidden");
    await expectAppError(setLogo(readKey, { file: upload("file", PNG_BYTES()) }), "insufficient_permissions");
    await setLogo((await addMember(org.id, "ADMIN")).actor, { file: upload("file", PNG_BYTES()) });
    await expectAppError(removeLogo(member), "forbidden");
    await expectAppError(removeLogo(readKey), "insufficient_permissions");
    await expectAppError(updateSettings(member, { branding: { accentColor: "#000000" } }), "forbidden");
    await expect(getSettings(actor)).resolves.toMatchObject({ branding: { accentColor: null, logo: { contentType: "image/png" } } });
    expect(await storedFileIds(org.id)).toHaveLength(1);
  });
});

async function codeOfLogo(promise: Promise<unknown>) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return [(err as AppError).code, (err as AppError).extra.errors];
}
