// npm run listen -- --api-key <key> --forward-to <url> [--api-url <origin>]
//
// Develop a webhook receiver on a laptop without a public URL: streams the
// key's organization's events (its mode: a test key, test events) from
// GET /api/v1/events/stream and POSTs each to --forward-to exactly as a real
// delivery — the same body and headers (X-Coverdesk-Signature, Standard
// Webhooks' webhook-id/-timestamp/-signature), signed with a secret printed at
// start. Prints a line per event and per answer; after a dropped connection
// it reconnects with the last event's id, so nothing is missed or sent twice.
// A receiver that fails is reported, not retried (read the event back with
// GET /api/v1/events/{id}). Ctrl-C ends it.
import { parseArgs } from "node:util";
import { createCoverdeskClient } from "@/client";
import { generateWebhookSecret, signatureHeaders } from "@/server/webhooks/signing";

const { values } = parseArgs({
  options: {
    "api-key": { type: "string" },
    "forward-to": { type: "string" },
    "api-url": { type: "string" },
    secret: { type: "string" },
  },
});

function usage(message: string): never {
  process.stderr.write(`${message}\nUsage: npm run listen -- --api-key <key> --forward-to <url> [--api-url <origin>]\n`);
  process.exit(2);
}

const apiKey = values["api-key"] ?? process.env.COVERDESK_API_KEY ?? usage("--api-key is required");
const forwardTo = values["forward-to"] ?? usage("--forward-to is required");
const apiUrl = (values["api-url"] ?? process.env.APP_URL ?? "http://localhost:3000").replace(/\/+$/, "");
try {
  new URL(forwardTo);
  new URL(apiUrl);
} catch {
  usage("--forward-to and --api-url must be absolute URLs (http://localhost:4000/webhooks)");
}
const secret = values.secret ?? generateWebhookSecret();
const coverdesk = createCoverdeskClient({ apiKey, apiUrl });

const now = () => new Date().toISOString().slice(11, 19);
const say = (line: string) => process.stdout.write(`${line}\n`);

let lastEventId: string | null = null;
let stopping = false;
let current: AbortController | null = null;
process.on("SIGINT", () => {
  stopping = true;
  current?.abort();
  say("stopped");
  process.exit(0);
});

/** Sends one event to the local receiver, signed as a delivery; reports the answer. */
async function forward(id: string, type: string, body: string): Promise<void> {
  say(`${now()}  --> ${type} [${id}]`);
  const started = Date.now();
  try {
    const res = await fetch(forwardTo, {
      method: "POST",
      headers: signatureHeaders(secret, id, type, body),
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(10_000),
    });
    await res.arrayBuffer().catch(() => undefined);
    say(`${now()}  <-- [${res.status}] POST ${forwardTo} (${Date.now() - started} ms) [${id}]`);
  } catch (err) {
    say(`${now()}  <-- [error] POST ${forwardTo}: ${(err as Error).message} [${id}]`);
  }
}

/** One connection: forwards every event until the stream ends. Throws on a refusal the key cannot get past. */
async function connect(): Promise<void> {
  current = new AbortController();
  // The typed client (src/client): the stream's path and refusals are the OpenAPI document's.
  const {
    data: stream,
    error,
    response,
  } = await coverdesk.GET("/events/stream", {
    parseAs: "stream",
    headers: { Accept: "text/event-stream", ...(lastEventId ? { "Last-Event-ID": lastEventId } : {}) },
    signal: current.signal,
  });
  if (response.status === 401 || response.status === 403) {
    throw Object.assign(new Error(`the API refused the key (${response.status}): ${error?.detail ?? ""}`), { fatal: true });
  }
  if (!response.ok || !stream) throw new Error(`the stream answered ${response.status}`);
  say(`${now()}  connected to ${apiUrl}${lastEventId ? ` (resuming after ${lastEventId})` : ""}`);

  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const message = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields: Record<string, string> = {};
      for (const line of message.split("\n")) {
        if (line === "" || line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const name = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        fields[name] = fields[name] === undefined ? value : `${fields[name]}\n${value}`;
      }
      if (fields.event === "error") throw Object.assign(new Error(`the stream ended: ${fields.data}`), { fatal: true });
      if (!fields.id || !fields.event || fields.data === undefined) continue;
      await forward(fields.id, fields.event, fields.data);
      lastEventId = fields.id;
    }
  }
}

async function main() {
  say(`Ready. Your webhook signing secret is ${secret}`);
  say(`Forwarding the events of ${apiUrl} to ${forwardTo} (Ctrl-C to quit)`);
  let pause = 500;
  while (!stopping) {
    const started = Date.now();
    try {
      await connect();
      say(`${now()}  the stream ended; reconnecting`);
    } catch (err) {
      if ((err as { fatal?: boolean }).fatal) {
        process.stderr.write(`${(err as Error).message}\n`);
        process.exit(1);
      }
      if (stopping) return;
      say(`${now()}  connection lost (${(err as Error).message}); reconnecting in ${pause} ms`);
    }
    await new Promise((r) => setTimeout(r, pause));
    pause = Date.now() - started > 10_000 ? 500 : Math.min(pause * 2, 10_000);
  }
}

void main();
