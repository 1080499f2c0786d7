// The event stream (GET /api/v1/events/stream, Server-Sent Events) and
// `npm run listen`: each message is an event exactly as the events API and the
// webhook delivery carry it; reconnecting with Last-Event-ID after 100 events
// gets all of them, in order, none twice; a test key never sees live events; a
// revoked key's stream ends; at most 5 streams per key, across instances. The CLI forwards the
// stream signed with the secret it prints, and after its connection is cut
// (a proxy between it and the app) catches up on the 100 events it missed.
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import net from "node:net";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { BASE_URL, unique } from "../support/api";
import { secondInstance } from "../support/second-instance";
import { createPolicyFor, ok, otherSide, startReceiver, tenantWithClients, type Tenant } from "./_helpers";

const POSTGRES = process.env.E2E_DATABASE === "postgres";

/* eslint-disable @typescript-eslint/no-explicit-any */

interface Message {
  id?: string;
  event?: string;
  data?: string;
}

/** A connection to the stream: its messages as they come (comments left out), and a way to drop it. */
async function openStream(key: string, lastEventId?: string, base = BASE_URL) {
  const abort = new AbortController();
  const res = await fetch(`${base}/api/v1/events/stream`, {
    headers: { Authorization: `Bearer ${key}`, ...(lastEventId ? { "Last-Event-ID": lastEventId } : {}) },
    signal: abort.signal,
  });
  const messages: Message[] = [];
  let ended = false;
  const reading = (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      if (!res.ok || !res.body) return;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const m: Message = {};
          for (const line of block.split("\n")) {
            if (line.startsWith(":") || !line.includes(":")) continue;
            const [name, ...rest] = line.split(":");
            (m as Record<string, string>)[name!] = rest.join(":").replace(/^ /, "");
          }
          if (m.id || m.event) messages.push(m);
        }
      }
    } catch {
      // dropped by us
    } finally {
      ended = true;
    }
  })();
  return {
    res,
    messages,
    ended: () => ended,
    events: () => messages.filter((m) => m.id),
    async waitFor(count: number, timeoutMs = 20_000) {
      await expect.poll(() => messages.filter((m) => m.id).length, { timeout: timeoutMs }).toBeGreaterThanOrEqual(count);
      return messages.filter((m) => m.id);
    },
    async close() {
      abort.abort();
      await reading;
    },
  };
}

async function fileClaims(t: Tenant & { write: any }, n: number, policyId?: string) {
  const policy = policyId ?? (await createPolicyFor(t.write)).id;
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const claim = await ok(
      await t.write.post("claims", { data: { policyId: policy, type: "theft", description: `Claim ${i + 1}`, amount: 10 } }),
      201,
    );
    ids.push(claim.id);
  }
  return { policy, ids };
}

test("each message is the event as the API serves it; after a drop, Last-Event-ID brings the 100 missed, in order, none twice", async () => {
  test.setTimeout(120_000);
  const t = await tenantWithClients();
  const stream = await openStream(t.readKey);
  expect(stream.res.status).toBe(200);
  expect(stream.res.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const { policy } = await fileClaims(t, 3);
  const first = await stream.waitFor(3);
  expect(first.map((m) => m.event)).toEqual(["claim.submitted", "claim.submitted", "claim.submitted"]);
  for (const m of first) {
    const served = await ok(await t.read.get(`events/${m.id}`));
    expect(m.data).toBe(JSON.stringify(served));
  }
  await stream.close();
  expect(stream.events()).toHaveLength(3);

  await fileClaims(t, 100, policy);
  const resumed = await openStream(t.readKey, first.at(-1)!.id);
  const missed = await resumed.waitFor(100);
  // Every one once, in the order they happened (the events API lists newest first).
  const listed = (await ok(await t.read.get("events?type=claim.submitted&limit=100"))).data.map((e: any) => e.id).reverse();
  expect(missed.map((m) => m.id)).toEqual(listed);
  await new Promise((r) => setTimeout(r, 1_500)); // a heartbeat later: nothing more
  expect(resumed.events()).toHaveLength(100);
  await resumed.close();

  // Bad resume points.
  const foreign = await fetch(`${BASE_URL}/api/v1/events/stream`, {
    headers: { Authorization: `Bearer ${t.readKey}`, "Last-Event-ID": `evt_${unique()}` },
  });
  expect(foreign.status).toBe(422);
  expect((await foreign.json()).code).toBe("validation_failed");
});

test("a test key's stream carries test events only; a revoked key's stream ends; 5 streams per key", async () => {
  test.setTimeout(90_000);
  const t = await tenantWithClients();
  const sandbox = await otherSide(t, "test");
  const testStream = await openStream(sandbox.readKey);
  await fileClaims(t, 1);
  const { ids } = await fileClaims(sandbox, 1);
  const [only] = await testStream.waitFor(1);
  expect(JSON.parse(only!.data!)).toMatchObject({ type: "claim.submitted", livemode: false, data: { id: ids[0] } });
  await new Promise((r) => setTimeout(r, 1_500));
  expect(testStream.events()).toHaveLength(1);
  await testStream.close();

  // Bounded across instances: on PostgreSQL three streams on the first instance and two on the second fill the
  // key's five places, and a sixth is refused on either.
  const second = POSTGRES ? secondInstance() : null;
  await second?.start();
  const bases = [BASE_URL, BASE_URL, BASE_URL, second?.base ?? BASE_URL, second?.base ?? BASE_URL];
  const five = await Promise.all(bases.map((base) => openStream(t.readKey, undefined, base)));
  expect(five.map((s) => s.res.status)).toEqual([200, 200, 200, 200, 200]);
  for (const base of new Set(bases)) {
    const sixth = await fetch(`${base}/api/v1/events/stream`, { headers: { Authorization: `Bearer ${t.readKey}` } });
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get("retry-after")).toBe("5");
  }
  await Promise.all(five.map((s) => s.close()));

  // Revoked: the stream ends by itself (key cache + a heartbeat), saying why. The five's places come back as the
  // server notices they left (a moment under load): until then a new stream is still the sixth.
  let doomed = await openStream(t.readKey);
  await expect
    .poll(
      async () => {
        if (doomed.res.status === 429) {
          await doomed.close();
          doomed = await openStream(t.readKey);
        }
        return doomed.res.status;
      },
      { timeout: 15_000 },
    )
    .toBe(200);
  await ok(await t.write.delete(`business/api-keys/${t.readKeyId}`));
  await expect.poll(() => doomed.ended(), { timeout: 20_000 }).toBe(true);
  expect(doomed.messages.at(-1)).toMatchObject({ event: "error" });
  expect(JSON.parse(doomed.messages.at(-1)!.data!).code).toBe("revoked_api_key");
  const refused = await fetch(`${BASE_URL}/api/v1/events/stream`, { headers: { Authorization: `Bearer ${t.readKey}` } });
  expect(refused.status).toBe(401);
});

/** A TCP proxy to the app whose connections can be cut and refused for a while. */
async function proxy() {
  const target = new URL(BASE_URL);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    /** Cuts every connection and refuses new ones. */
    async cut() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
        sockets.clear();
      });
    },
    async restore() {
      await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    },
    close: () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve())),
  };
}

test("npm run listen forwards each event signed with the secret it prints, and catches up after its connection is cut", async () => {
  test.setTimeout(150_000);
  const t = await tenantWithClients();
  const rx = await startReceiver();
  const link = await proxy();
  let cli: ChildProcess | undefined;
  try {
    const output: string[] = [];
    cli = spawn(
      process.execPath,
      ["--import", "tsx", "scripts/listen.ts", "--api-key", t.readKey, "--forward-to", rx.url, "--api-url", link.url],
      { cwd: path.resolve(__dirname, "../.."), env: { ...process.env, NODE_NO_WARNINGS: "1" } },
    );
    cli.stdout!.on("data", (d: Buffer) => output.push(...d.toString().split("\n").filter(Boolean)));
    cli.stderr!.on("data", (d: Buffer) => output.push(...d.toString().split("\n").filter(Boolean)));
    await expect.poll(() => output.some((l) => l.includes("connected to")), { timeout: 30_000 }).toBe(true);
    const secret = /signing secret is (whsec_\S+)/.exec(output.join("\n"))![1]!;

    const { policy, ids } = await fileClaims(t, 2);
    const got = await rx.waitFor(2);
    for (const [i, req] of got.entries()) {
      const body = new StandardWebhook(secret).verify(req.body, req.headers) as any;
      expect(body).toMatchObject({ type: "claim.submitted", data: { id: ids[i] } });
      expect(req.headers["x-coverdesk-signature"]).toBe(crypto.createHmac("sha256", secret).update(req.body).digest("hex"));
      expect(req.body).toBe(JSON.stringify(await ok(await t.read.get(`events/${body.id}`))));
    }
    expect(output.filter((l) => l.includes("<-- [200]"))).toHaveLength(2);

    // Cut: 100 events happen while it cannot connect; restored, it brings them all, in order, once each.
    await link.cut();
    const missed = await fileClaims(t, 100, policy);
    await link.restore();
    const all = await rx.waitFor(102, 60_000);
    expect(all.slice(2).map((r) => JSON.parse(r.body).data.id)).toEqual(missed.ids);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(rx.requests).toHaveLength(102);
    expect(output.some((l) => l.includes("resuming after"))).toBe(true);
  } finally {
    cli?.kill("SIGINT");
    await link.close();
    await rx.close();
  }
});
