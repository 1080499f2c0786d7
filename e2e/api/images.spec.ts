// Images against the running app: an image is judged by its header before
// anything decodes it (the reported decompression bomb — an 8000 × 8000 PNG of
// 249 KB — is a 422 on every upload path, leaving nothing stored); a logo is
// kept fitted inside 512 × 512 (the portal serves that copy, certificates draw
// it); and certificates render without stalling the server: /api/health keeps
// answering while several are made at once from the largest logo allowed.
// "Stalling" is measured against what the alternative costs: pdf-lib decoding
// the 4096 × 4096 PNG on the event loop takes ~2 s per certificate here, so
// four at once would hold health for seconds; with the 512 × 512 copy a quiet
// machine answers within 35–56 ms, and a CI machine running three spec workers,
// two app instances and Chromium beside it has been seen at 104–213 ms. The
// bar is 300 ms: far under the stall, above the noise.
import fs from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { expect, test } from "@playwright/test";
import sharp from "sharp";
import { bombPng } from "../../src/test/png";
import { BASE_URL, problem } from "../support/api";
import type { FilePart } from "./_files";
import { buyPolicy, createPolicyFor, ok, tenantWithClients } from "./_helpers";

/** The bytes the server holds for an organization (disk storage under its DATA_DIR). */
async function storedBytes(organizationId: string): Promise<string[]> {
  try {
    return (await fs.readdir(path.join(process.env.E2E_DATA_DIR ?? "", "files", organizationId))).filter(
      (f) => !f.endsWith(".tmp"),
    );
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
}

const BOMB_MESSAGE = "Choose an image of at most 4096 × 4096 pixels (this one is 8000 × 8000)";

test("an 8000 × 8000 PNG of 249 KB is 422 on every upload path, nothing stored", async () => {
  const t = await tenantWithClients();
  const bomb: FilePart = { name: "bomb.png", mimeType: "image/png", buffer: await bombPng() };
  expect(bomb.buffer.length).toBeGreaterThan(240_000);
  expect(bomb.buffer.length).toBeLessThan(260_000);

  const expectRefused = async (res: Parameters<typeof problem>[0]) => {
    const err = await problem(res, 422, "validation_failed");
    expect(err.errors).toEqual([{ path: "file", message: BOMB_MESSAGE }]);
  };
  // The logo: REST, and the dashboard's upload route (as the signed-in owner).
  await expectRefused(await t.write.post("business/settings/logo", { multipart: { file: bomb } }));
  await expectRefused(await t.account.session.post("/api/upload/business/settings/logo", { multipart: { file: bomb } }));
  // Claim evidence and business documents take images too.
  const policy = await createPolicyFor(t.write);
  const claim = await ok(
    await t.write.post("claims", { data: { policyId: policy.id, type: "fire", description: "Kitchen fire", amount: 900 } }),
    201,
  );
  await expectRefused(await t.write.post(`claims/${claim.id}/attachments`, { multipart: { file: bomb } }));
  await expectRefused(
    await t.write.post("business/documents/certificates", {
      multipart: { file: bomb, name: "Licence", type: "insurance licence" },
    }),
  );

  expect((await ok(await t.read.get("business/settings"))).branding.logo).toBeNull();
  expect((await ok(await t.read.get(`claims/${claim.id}/attachments`))).data).toEqual([]);
  expect((await ok(await t.read.get("business/documents/certificates"))).data).toEqual([]);
  expect(await storedBytes(t.organizationId)).toEqual([]);
});

/** The longest health answer that is not a stall (see the header). */
const STALL_MS = 300;

/** GET /api/health over one kept-alive connection: how long each answer took, in ms. */
function healthProbe() {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const once = () =>
    new Promise<number>((resolve, reject) => {
      const started = performance.now();
      const req = http.get(`${BASE_URL}/api/health`, { agent }, (res) => {
        res.resume();
        res.on("end", () =>
          res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`health ${res.statusCode}`)),
        );
      });
      req.setTimeout(30_000, () => req.destroy(new Error("health took over 30 s")));
      req.on("error", reject);
    });
  return { once, close: () => agent.destroy() };
}

test("a 4096 × 4096 logo is kept at 512 × 512; certificates render while /api/health answers within 300 ms", async () => {
  test.setTimeout(120_000);
  const t = await tenantWithClients();
  // The largest image allowed (64 MiB decoded), a plain colour so the file stays small.
  const large = await sharp({
    create: { width: 4096, height: 4096, channels: 4, background: { r: 20, g: 80, b: 160, alpha: 0.9 } },
  })
    .png()
    .toBuffer();
  const set = await ok(
    await t.write.post("business/settings/logo", {
      multipart: { file: { name: "large.png", mimeType: "image/png", buffer: large } },
    }),
  );
  // What is kept, served to the organization and on the portal, is the small copy.
  const kept = await t.read.get(set.branding.logo.url);
  expect(kept.status()).toBe(200);
  const keptBytes = await kept.body();
  expect(set.branding.logo.size).toBe(keptBytes.length);
  expect(await sharp(keptBytes).metadata()).toMatchObject({ format: "png", width: 512, height: 512 });
  const portal = await fetch(`${BASE_URL}/api/portal/${t.organizationId}/logo`);
  expect(portal.status).toBe(200);
  expect(Buffer.from(await portal.arrayBuffer()).equals(keptBytes)).toBe(true);

  const policy = await createPolicyFor(t.write);
  const { coverage } = await buyPolicy(t.write, policy, `holder-${Math.random().toString(36).slice(2)}@example.test`);
  const certificate = async () => {
    const res = await t.read.get(`business/coverages/${coverage.id}/certificate`, { timeout: 60_000 });
    expect(res.status()).toBe(200);
    return (await res.body()).length;
  };
  await certificate(); // warm: the first render loads the fonts and compiles the route

  // Four certificates at once while health is asked again and again; the longest answer is the stall.
  // A loaded two-core machine (CI runs two spec workers) can delay one round: the best of three counts.
  const probe = healthProbe();
  const rounds: number[] = [];
  try {
    for (let round = 0; round < 3; round++) {
      let rendering = true;
      const renders = Promise.all(Array.from({ length: 4 }, certificate)).finally(() => (rendering = false));
      const latencies: number[] = [];
      while (rendering || latencies.length < 5) {
        latencies.push(await probe.once());
        await new Promise((r) => setTimeout(r, 5));
      }
      await renders;
      rounds.push(Math.max(...latencies));
      if (rounds.at(-1)! < STALL_MS) break;
    }
  } finally {
    probe.close();
  }
  expect(
    Math.min(...rounds),
    `longest health answer in each round (ms): ${rounds.map((r) => r.toFixed(1)).join(", ")}`,
  ).toBeLessThan(STALL_MS);
});
