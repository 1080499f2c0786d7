// Settings against a real database: defaults, merge semantics, tenancy, roles.
import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { Actor } from "@/server/actor";
import { db } from "@/server/db/client";
import { AppError, type ErrorCode } from "@/server/errors";
import { filesDir } from "@/server/files/disk";
import { openFile, withStoredFiles } from "@/server/files/service";
import { addMember, ownerWithOrganization } from "@/test/fixtures";
import { bombPng } from "@/test/png";
import { filesOnDisk, PDF_BYTES, storedFileIds, upload } from "@/test/uploads";
import { UpdateSettingsInput, UploadLogoInput } from "@/lib/schemas/settings";
import { getSettings, removeLogo, setLogo, updateSettings } from "./service";

/** A real image of `width` × `height` (a gradient, so it compresses as a logo does). */
async function image(width: number, height: number, format: "png" | "jpeg" = "png"): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) raw.set([(x * 255) / width, (y * 255) / height, 128], (y * width + x) * 3);
  const img = sharp(raw, { raw: { width, height, channels: 3 } });
  return format === "png" ? img.png().toBuffer() : img.jpeg().toBuffer();
}
const PNG_BYTES = () => image(4, 4);
const JPEG_BYTES = () => image(4, 4, "jpeg");

/** The bytes kept for the organization's logo. */
async function keptLogo(organizationId: string): Promise<Buffer> {
  const org = await db.organization.findUniqueOrThrow({ where: { id: organizationId }, include: { logoFile: true } });
  return fs.readFile(path.join(filesDir(), org.logoFile!.storageKey));
}

async function expectAppError(promise: Promise<unknown>, code: ErrorCode) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, `expected AppError ${code}`).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe(code);
}

const EXTRAS = { reminders: { daysBefore: [14, 3] }, coverage: { coolingOffDays: 14 }, branding: { accentColor: null, logo: null } };
const DEFAULTS = { notifications: { email: true, sms: false, digest: false }, api: { rateLimit: 600 }, ...EXTRAS };

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
      notifications: { email: true, sms: true, digest: false },
      api: { rateLimit: 600 },
      ...EXTRAS,
    });
    await expect(updateSettings(actor, { api: { rateLimit: 5 } })).resolves.toEqual({
      notifications: { email: true, sms: true, digest: false },
      api: { rateLimit: 5 },
      ...EXTRAS,
    });
    await expect(updateSettings(actor, { notifications: { email: false } })).resolves.toEqual({
      notifications: { email: false, sms: true, digest: false },
      api: { rateLimit: 5 },
      ...EXTRAS,
    });
    await expect(updateSettings(actor, {})).resolves.toEqual({
      notifications: { email: false, sms: true, digest: false },
      api: { rateLimit: 5 },
      ...EXTRAS,
    });
    await expect(getSettings(actor)).resolves.toEqual({
      notifications: { email: false, sms: true, digest: false },
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
    await expect(
      updateSettings(actor, UpdateSettingsInput.parse({ reminders: { daysBefore: [1, 30, 7] } })),
    ).resolves.toMatchObject({ reminders: { daysBefore: [30, 7, 1] } });
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

  it("cooling-off days: 0–30 whole days, kept on the account for both modes", async () => {
    const { actor, org } = await ownerWithOrganization();
    await expect(updateSettings(actor, UpdateSettingsInput.parse({ coverage: { coolingOffDays: 0 } }))).resolves.toMatchObject({
      coverage: { coolingOffDays: 0 },
    });
    expect((await db.organization.findUniqueOrThrow({ where: { id: org.id } })).coolingOffDays).toBe(0);
    for (const bad of [-1, 31, 2.5, "7"]) {
      const parsed = UpdateSettingsInput.safeParse({ coverage: { coolingOffDays: bad } });
      expect(parsed.error!.issues.map((i) => [i.path.join("."), i.message])).toEqual([
        ["coverage.coolingOffDays", "Enter a whole number from 0 to 30"],
      ]);
    }
  });

  it("accepts 1 and 90, and five distinct days", () => {
    expect(UpdateSettingsInput.safeParse({ reminders: { daysBefore: [90, 60, 30, 7, 1] } }).success).toBe(true);
  });
});

describe("branding", () => {
  it("accent colour: #rrggbb stored lower-case, null for Coverdesk's own", async () => {
    const { actor } = await ownerWithOrganization();
    await expect(
      updateSettings(actor, UpdateSettingsInput.parse({ branding: { accentColor: "#AA11cc" } })),
    ).resolves.toMatchObject({
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
    const first = await setLogo(actor, UploadLogoInput.parse({ file: upload("file", await PNG_BYTES(), "logo.png") }));
    expect(first.branding.logo).toMatchObject({ fileName: "logo.png", contentType: "image/png" });
    expect(first.branding.logo!.size).toBe((await keptLogo(org.id)).length);
    const firstRow = await db.organization.findUniqueOrThrow({ where: { id: org.id } });
    expect(await storedFileIds(org.id)).toEqual([firstRow.logoFileId]);
    expect(first.branding.logo!.url).toMatch(new RegExp(`/api/files/${firstRow.logoFileId}$`));
    expect(await filesOnDisk(org.id)).toEqual([firstRow.logoFileId]);

    const second = await setLogo(actor, UploadLogoInput.parse({ file: upload("file", await JPEG_BYTES(), "logo.jpg") }));
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
    await setLogo(testActor, UploadLogoInput.parse({ file: upload("file", await PNG_BYTES()) }));
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
    const big = Buffer.concat([await PNG_BYTES(), Buffer.alloc(1024 * 1024)]);
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
    await expectAppError(setLogo(member, { file: upload("file", await PNG_BYTES()) }), "forbidden");
    await expectAppError(setLogo(readKey, { file: upload("file", await PNG_BYTES()) }), "insufficient_permissions");
    await setLogo((await addMember(org.id, "ADMIN")).actor, { file: upload("file", await PNG_BYTES()) });
    await expectAppError(removeLogo(member), "forbidden");
    await expectAppError(removeLogo(readKey), "insufficient_permissions");
    await expectAppError(updateSettings(member, { branding: { accentColor: "#000000" } }), "forbidden");
    await expect(getSettings(actor)).resolves.toMatchObject({
      branding: { accentColor: null, logo: { contentType: "image/png" } },
    });
    expect(await storedFileIds(org.id)).toHaveLength(1);
  });
});

describe("the logo's image", () => {
  it("is kept fitted inside 512 × 512, in its format, upright and without metadata", async () => {
    const { org, actor } = await ownerWithOrganization();
    const wide = await sharp(await image(2000, 1000))
      .withMetadata({ exif: { IFD0: { Copyright: "secret" } } })
      .png()
      .toBuffer();
    const set = await setLogo(actor, UploadLogoInput.parse({ file: upload("file", wide, "wide.png") }));
    const kept = await keptLogo(org.id);
    expect(set.branding.logo).toMatchObject({ fileName: "wide.png", contentType: "image/png", size: kept.length });
    const meta = await sharp(kept).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(["png", 512, 256, undefined]);

    // A JPEG photo turned on its side by EXIF (orientation 6): kept upright, as a JPEG.
    const sideways = await sharp(await image(600, 300, "jpeg"))
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    await setLogo(actor, UploadLogoInput.parse({ file: upload("file", sideways, "photo.jpg") }));
    const photo = await sharp(await keptLogo(org.id)).metadata();
    expect([photo.format, photo.width, photo.height, photo.orientation]).toEqual(["jpeg", 256, 512, undefined]);

    // A small one keeps its size.
    await setLogo(actor, UploadLogoInput.parse({ file: upload("file", await image(40, 20)) }));
    const small = await sharp(await keptLogo(org.id)).metadata();
    expect([small.width, small.height]).toEqual([40, 20]);
    expect(await storedFileIds(org.id)).toHaveLength(1);
  });

  it("refuses a decompression bomb (8000 × 8000 in 249 KB) by its header, 422, storing nothing", async () => {
    const { org, actor } = await ownerWithOrganization();
    const bomb = await bombPng();
    expect(bomb.length).toBeLessThan(260_000);
    const started = performance.now();
    expect(await codeOfLogo(setLogo(actor, UploadLogoInput.parse({ file: upload("file", bomb, "bomb.png") })))).toEqual([
      "validation_failed",
      [{ path: "file", message: "Choose an image of at most 4096 × 4096 pixels (this one is 8000 × 8000)" }],
    ]);
    // Judged without decoding it.
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await storedFileIds(org.id)).toEqual([]);
    expect(await filesOnDisk(org.id)).toEqual([]);
  });

  it("refuses an image whose header cannot be read, or that cannot be decoded (422)", async () => {
    const { org, actor } = await ownerWithOrganization();
    const headless = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from("IHDR test image"),
    ]);
    expect(await codeOfLogo(setLogo(actor, UploadLogoInput.parse({ file: upload("file", headless) })))).toEqual([
      "validation_failed",
      [{ path: "file", message: "Choose an image that is not damaged: its size could not be read" }],
    ]);
    const good = await image(20, 20);
    const damaged = Buffer.concat([good.subarray(0, 33), Buffer.alloc(64, 7)]);
    expect(await codeOfLogo(setLogo(actor, UploadLogoInput.parse({ file: upload("file", damaged) })))).toEqual([
      "validation_failed",
      [{ path: "file", message: "Choose an image that is not damaged: it could not be opened" }],
    ]);
    expect(await storedFileIds(org.id)).toEqual([]);
    expect(await filesOnDisk(org.id)).toEqual([]);
  });
});

describe("the logo's URL in test mode", () => {
  it("opens for a key of the test twin (as the settings give it to test keys); nothing else of the live side does", async () => {
    const { org, actor } = await ownerWithOrganization();
    const twin = await db.organization.findUniqueOrThrow({ where: { liveOrganizationId: org.id } });
    const set = await setLogo(actor, UploadLogoInput.parse({ file: upload("file", await PNG_BYTES(), "logo.png") }));
    const logoId = set.branding.logo!.url.split("/").at(-1)!;
    // What serve.ts passes for a test key: its twin, and the account it belongs to.
    const testKey = { organizationId: twin.id, accountId: org.id };
    const opened = await openFile(testKey, logoId);
    expect(opened.file.id).toBe(logoId);
    await opened.body.cancel();
    // Another live file of the account stays the live side's.
    const [other] = await withStoredFiles(org.id, [upload("file", PDF_BYTES())], async (_tx, files) => files);
    await expectAppError(openFile(testKey, other!.id), "not_found");
    // Another account's test key: not found.
    const stranger = await ownerWithOrganization();
    const strangerTwin = await db.organization.findUniqueOrThrow({ where: { liveOrganizationId: stranger.org.id } });
    await expectAppError(openFile({ organizationId: strangerTwin.id, accountId: stranger.org.id }, logoId), "not_found");
  });
});

describe("concurrent logo uploads", () => {
  it("10 at once all succeed; the last one wins, one logo row and its bytes remain", async () => {
    const { org, actor } = await ownerWithOrganization();
    await setLogo(actor, UploadLogoInput.parse({ file: upload("file", await image(10, 10), "first.png") }));
    const files = await Promise.all(Array.from({ length: 10 }, (_, i) => image(10 + i, 10)));
    const results = await Promise.allSettled(
      files.map((bytes, i) => setLogo(actor, UploadLogoInput.parse({ file: upload("file", bytes, `logo-${i}.png`) }))),
    );
    const failures = results.flatMap((r) => (r.status === "rejected" ? [String((r.reason as Error).message)] : []));
    expect(failures).toEqual([]);
    const row = await db.organization.findUniqueOrThrow({ where: { id: org.id }, include: { logoFile: true } });
    expect(await storedFileIds(org.id)).toEqual([row.logoFileId]);
    expect(await filesOnDisk(org.id)).toEqual([row.logoFileId]);
    expect(row.logoFile!.fileName).toMatch(/^logo-\d\.png$/);
    await expect(getSettings(actor)).resolves.toMatchObject({ branding: { logo: { fileName: row.logoFile!.fileName } } });
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
