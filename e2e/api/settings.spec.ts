// REST: /business/settings — read and merge-update (notifications, API limit,
// renewal reminder days, accent colour) and the logo (upload, replace, remove).
import { expect, test, type APIResponse } from "@playwright/test";
import sharp from "sharp";
import { BASE_URL, problem, restClient, trpc } from "../support/api";
import { fileAnswer, jpegPart, pdfPart, PNG, pngPart, sha256, uploadCertificate } from "./_files";
import { errorPaths, joinTeam, ok, otherSide, tenantWithClients } from "./_helpers";

const EXTRAS = {
  reminders: { daysBefore: [14, 3] },
  coverage: { coolingOffDays: 14 },
  branding: { accentColor: null, logo: null },
};
const DEFAULTS = { notifications: { email: true, sms: false, digest: false }, api: { rateLimit: 600 }, ...EXTRAS };

test.describe("GET /business/settings", () => {
  test("answers the defaults with the exact shape (read key)", async () => {
    const t = await tenantWithClients();
    expect(await ok(await t.read.get("business/settings"))).toEqual(DEFAULTS);
  });
});

test.describe("PUT /business/settings", () => {
  test("merges: setting sms only leaves email and rateLimit unchanged", async () => {
    const t = await tenantWithClients();
    const updated = await ok(await t.write.put("business/settings", { data: { notifications: { sms: true } } }));
    const expected = { notifications: { email: true, sms: true, digest: false }, api: { rateLimit: 600 }, ...EXTRAS };
    expect(updated).toEqual(expected);
    expect(await ok(await t.read.get("business/settings"))).toEqual(expected);
  });

  test("merges: setting rateLimit only leaves notifications unchanged", async () => {
    const t = await tenantWithClients();
    await ok(await t.write.put("business/settings", { data: { notifications: { email: false, sms: true } } }));
    const updated = await ok(await t.write.put("business/settings", { data: { api: { rateLimit: 1234 } } }));
    const expected = { notifications: { email: false, sms: true, digest: false }, api: { rateLimit: 1234 }, ...EXTRAS };
    expect(updated).toEqual(expected);
    expect(await ok(await t.read.get("business/settings"))).toEqual(expected);
    // The new limit is what the rate-limit headers advertise.
    const res = await t.read.get("business/settings");
    expect(res.headers()["ratelimit-policy"]).toBe('"default";q=1234;w=60');
  });

  test("accepts the bounds 1 and 100000", async () => {
    const t = await tenantWithClients();
    expect((await ok(await t.write.put("business/settings", { data: { api: { rateLimit: 100000 } } }))).api.rateLimit).toBe(
      100000,
    );
    expect((await ok(await t.write.put("business/settings", { data: { api: { rateLimit: 1 } } }))).api.rateLimit).toBe(1);
  });

  test("changes only the caller's organization", async () => {
    const [a, b] = await Promise.all([tenantWithClients(), tenantWithClients()]);
    await ok(await a.write.put("business/settings", { data: { notifications: { email: false }, api: { rateLimit: 42 } } }));
    expect(await ok(await b.read.get("business/settings"))).toEqual(DEFAULTS);
  });

  const invalid: [string, unknown, string][] = [
    ["rateLimit 0", { api: { rateLimit: 0 } }, "api.rateLimit"],
    ["rateLimit 100001", { api: { rateLimit: 100001 } }, "api.rateLimit"],
    ["rateLimit 1.5", { api: { rateLimit: 1.5 } }, "api.rateLimit"],
    ['rateLimit "x"', { api: { rateLimit: "x" } }, "api.rateLimit"],
    ['notifications.email "yes"', { notifications: { email: "yes" } }, "notifications.email"],
    ["notifications.sms null", { notifications: { sms: null } }, "notifications.sms"],
    ["a reminder day of 0", { reminders: { daysBefore: [14, 0] } }, "reminders.daysBefore.1"],
    ["a reminder day of 91", { reminders: { daysBefore: [91] } }, "reminders.daysBefore.0"],
    ["six reminder days", { reminders: { daysBefore: [1, 2, 3, 4, 5, 6] } }, "reminders.daysBefore"],
    ["a repeated reminder day", { reminders: { daysBefore: [3, 3] } }, "reminders.daysBefore"],
    ['accentColor "blue"', { branding: { accentColor: "blue" } }, "branding.accentColor"],
    ["accentColor #abc", { branding: { accentColor: "#abc" } }, "branding.accentColor"],
  ];
  for (const [label, body, path] of invalid) {
    test(`${label} → 422 naming ${path}, settings unchanged`, async () => {
      const t = await tenantWithClients();
      await ok(await t.write.put("business/settings", { data: { notifications: { sms: true } } }));
      const before = await ok(await t.read.get("business/settings"));
      const err = await problem(await t.write.put("business/settings", { data: body }), 422, "validation_failed");
      expect(errorPaths(err)).toContain(path);
      expect(err.detail).toContain(path);
      expect(await ok(await t.read.get("business/settings"))).toEqual(before);
    });
  }

  test("a valid field next to an invalid one changes nothing", async () => {
    const t = await tenantWithClients();
    await problem(
      await t.write.put("business/settings", { data: { notifications: { sms: true }, api: { rateLimit: 0 } } }),
      422,
      "validation_failed",
    );
    expect(await ok(await t.read.get("business/settings"))).toEqual(DEFAULTS);
  });
});

test.describe("renewal reminder days and accent colour", () => {
  test("set, merged, read by live and test keys, changed by live keys only; [] turns reminders off", async () => {
    const t = await tenantWithClients();
    const updated = await ok(
      await t.write.put("business/settings", {
        data: { reminders: { daysBefore: [3, 30, 7] }, coverage: { coolingOffDays: 7 }, branding: { accentColor: "#0F766E" } },
      }),
    );
    expect(updated).toEqual({
      notifications: { email: true, sms: false, digest: false },
      api: { rateLimit: 600 },
      reminders: { daysBefore: [30, 7, 3] },
      coverage: { coolingOffDays: 7 },
      branding: { accentColor: "#0f766e", logo: null },
    });
    const test = await otherSide(t, "test");
    expect(await ok(await test.read.get("business/settings"))).toEqual(updated);
    // Shared by both modes, so a test key may read them but not change them (403); the live key does.
    const refused = await problem(
      await test.write.put("business/settings", { data: { reminders: { daysBefore: [] } } }),
      403,
      "forbidden",
    );
    expect(refused.detail).toBe("Test keys cannot change the live account");
    expect(await ok(await t.read.get("business/settings"))).toEqual(updated);
    await ok(await t.write.put("business/settings", { data: { reminders: { daysBefore: [] } } }));
    expect(await ok(await t.read.get("business/settings"))).toMatchObject({
      reminders: { daysBefore: [] },
      branding: { accentColor: "#0f766e" },
    });
    await ok(await t.write.put("business/settings", { data: { branding: { accentColor: null } } }));
    expect((await ok(await t.read.get("business/settings"))).branding.accentColor).toBeNull();
  });

  test("a day out of range says which and why, and changes nothing", async () => {
    const t = await tenantWithClients();
    const err = await problem(
      await t.write.put("business/settings", { data: { reminders: { daysBefore: [14, 120] }, api: { rateLimit: 5 } } }),
      422,
      "validation_failed",
    );
    expect(err.errors).toEqual([{ path: "reminders.daysBefore.1", message: "Enter whole numbers of days from 1 to 90" }]);
    expect(await ok(await t.read.get("business/settings"))).toEqual(DEFAULTS);
  });

  test("a read-only key changes nothing: 403 on the settings and the logo", async () => {
    const t = await tenantWithClients();
    for (const res of [
      await t.read.put("business/settings", { data: { reminders: { daysBefore: [1] }, branding: { accentColor: "#000000" } } }),
      await t.read.post("business/settings/logo", { multipart: { file: pngPart() } }),
      await t.read.delete("business/settings/logo"),
    ]) {
      await problem(res, 403, "insufficient_permissions");
    }
    expect(await ok(await t.read.get("business/settings"))).toEqual(DEFAULTS);
  });
});

/** A logo as the server keeps it: the image decoded again (at most 512 × 512, no metadata). */
async function keptImage(res: APIResponse) {
  expect(res.status()).toBe(200);
  const bytes = await res.body();
  const { format, width, height } = await sharp(bytes).metadata();
  return { format, width, height, size: bytes.length, sha256: sha256(bytes) };
}

test.describe("the logo", () => {
  test("PNG uploaded, served to the organization, replaced by a JPEG (the PNG deleted), removed", async () => {
    const t = await tenantWithClients();
    const first = await ok(await t.write.post("business/settings/logo", { multipart: { file: pngPart("brand.png") } }));
    expect(first.branding.logo).toMatchObject({ fileName: "brand.png", contentType: "image/png" });
    expect(Object.keys(first.branding.logo).sort()).toEqual(["contentType", "createdAt", "fileName", "size", "url"]);
    expect(await ok(await t.read.get("business/settings"))).toEqual(first);
    const url = first.branding.logo.url as string;
    // What is served is the copy kept at upload (encoded again, same format and size in pixels), with the size the settings give.
    expect(await fileAnswer(await t.read.get(url))).toMatchObject({ status: 200, contentType: "image/png" });
    expect(await keptImage(await t.read.get(url))).toMatchObject({
      format: "png",
      width: 1,
      height: 1,
      size: first.branding.logo.size,
    });
    // Another organization's key: not found.
    const other = await tenantWithClients();
    expect((await other.read.get(url)).status()).toBe(404);

    const second = await ok(await t.write.post("business/settings/logo", { multipart: { file: jpegPart("brand.jpg") } }));
    expect(second.branding.logo).toMatchObject({ fileName: "brand.jpg", contentType: "image/jpeg" });
    expect(second.branding.logo.url).not.toBe(url);
    expect((await t.read.get(url)).status()).toBe(404);
    expect(await keptImage(await t.read.get(second.branding.logo.url))).toMatchObject({
      format: "jpeg",
      width: 1,
      height: 1,
      size: second.branding.logo.size,
    });

    const removed = await t.write.delete("business/settings/logo");
    expect(removed.status()).toBe(204);
    expect((await ok(await t.read.get("business/settings"))).branding.logo).toBeNull();
    expect((await t.read.get(second.branding.logo.url)).status()).toBe(404);
    // Nothing left to remove: still 204.
    expect((await t.write.delete("business/settings/logo")).status()).toBe(204);
  });

  test("a PDF is 415 and an image over 1 MiB is 413, the logo kept", async () => {
    const t = await tenantWithClients();
    const kept = await ok(await t.write.post("business/settings/logo", { multipart: { file: pngPart() } }));
    const pdf = await problem(
      await t.write.post("business/settings/logo", { multipart: { file: await pdfPart("logo.pdf") } }),
      415,
      "unsupported_media_type",
    );
    expect(pdf.errors).toEqual([{ path: "file", message: "Choose a PNG or JPEG image" }]);
    const big = { name: "big.png", mimeType: "image/png", buffer: Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]) };
    const tooBig = await problem(
      await t.write.post("business/settings/logo", { multipart: { file: big } }),
      413,
      "payload_too_large",
    );
    expect(errorPaths(tooBig)).toEqual(["file"]);
    expect(await ok(await t.read.get("business/settings"))).toEqual(kept);
  });

  test("without a key: 401; through the dashboard's upload route a MEMBER is refused (403), an ADMIN sets it", async () => {
    const t = await tenantWithClients();
    const anonymous = await restClient();
    await problem(await anonymous.post("business/settings/logo", { multipart: { file: pngPart() } }), 401, "missing_api_key");
    const member = await joinTeam(t, "MEMBER");
    await problem(
      await member.account.session.post("/api/upload/business/settings/logo", { multipart: { file: pngPart() } }),
      403,
      "forbidden",
    );
    expect(await ok(await t.read.get("business/settings"))).toEqual(DEFAULTS);
    const admin = await joinTeam(t, "ADMIN");
    const set = await admin.account.session.post("/api/upload/business/settings/logo", { multipart: { file: pngPart() } });
    expect(set.status()).toBe(200);
    expect((await ok(await t.read.get("business/settings"))).branding.logo).toMatchObject({ contentType: "image/png" });
  });
  test("the URL given to a test key works for that key, and for the dashboard in test mode; nothing else of the live side opens", async () => {
    const t = await tenantWithClients();
    const testSide = await otherSide(t, "test");
    // Settings, the logo among them, are the account's (one logo for both modes): a test key may not set it.
    await problem(
      await testSide.write.post("business/settings/logo", { multipart: { file: pngPart("x.png") } }),
      403,
      "forbidden",
    );
    const set = await ok(await t.write.post("business/settings/logo", { multipart: { file: pngPart("brand.png") } }));
    const url = set.branding.logo.url as string;
    expect((await ok(await testSide.read.get("business/settings"))).branding.logo.url).toBe(url);
    expect((await ok(await t.read.get("business/settings"))).branding.logo.url).toBe(url);
    for (const client of [testSide.read, testSide.write, t.read]) {
      expect(await keptImage(await client.get(url))).toMatchObject({ format: "png", size: set.branding.logo.size });
    }
    // The dashboard in test mode (the member's session) opens it too.
    await trpc(t.account, "organizations.setMode", { livemode: false });
    const viaSession = await t.account.session.get(url.replace(BASE_URL, ""));
    expect(await keptImage(viaSession)).toMatchObject({ format: "png", size: set.branding.logo.size });
    // A test key opens the live account's logo only: a live document is still not found for it…
    const liveDocument = await uploadCertificate(t.write);
    expect((await t.read.get(liveDocument.url)).status()).toBe(200);
    expect((await testSide.read.get(liveDocument.url)).status()).toBe(404);
    // …nor another account's logo for another account's test key.
    const stranger = await otherSide(await tenantWithClients(), "test");
    expect((await stranger.read.get(url)).status()).toBe(404);
    // Replaced: the old URL is gone for every key, the new one works for the test key.
    const replaced = await ok(await t.write.post("business/settings/logo", { multipart: { file: jpegPart("brand.jpg") } }));
    expect((await testSide.read.get(url)).status()).toBe(404);
    expect(await keptImage(await testSide.read.get(replaced.branding.logo.url))).toMatchObject({ format: "jpeg" });
  });

  test("10 uploads at once all succeed; the last one wins and one logo remains", async () => {
    const t = await tenantWithClients();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        t.write.post("business/settings/logo", { multipart: { file: pngPart(`logo-${i}.png`) } }),
      ),
    );
    expect(results.map((r) => r.status())).toEqual(Array(10).fill(200));
    const logo = (await ok(await t.read.get("business/settings"))).branding.logo;
    expect(logo.fileName).toMatch(/^logo-\d\.png$/);
    expect((await t.read.get(logo.url)).status()).toBe(200);
    // Every replaced logo is gone: the URLs the other answers gave are not found.
    const urls = new Set(await Promise.all(results.map(async (r) => (await r.json()).branding.logo.url as string)));
    for (const other of [...urls].filter((u) => u !== logo.url)) expect((await t.read.get(other)).status()).toBe(404);
  });
});
