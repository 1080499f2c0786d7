// How long a request's head waited to be read after its connection was
// accepted (admission sheds writes that reach a saturated process that far
// behind), on a real Node HTTP server with the guard's direct REST hand-over.
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installHttpGuard, readBacklogMs, serveApiDirectly } from "./http-guard";

let server: http.Server;
let port: number;

beforeAll(async () => {
  installHttpGuard();
  serveApiDirectly(async (request) => Response.json({ backlogMs: readBacklogMs(request) }));
  server = http.createServer((_req, res) => res.end("not the API"));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** Opens a connection, waits `idleMs`, then sends `count` requests on it one after the other; their backlogs. */
function backlogs(idleMs: number, count: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const found: number[] = [];
    let data = "";
    const socket = net.connect(port, "127.0.0.1", () => setTimeout(send, idleMs));
    const send = () => socket.write(`GET /api/v1/backlog HTTP/1.1\r\nHost: x\r\n\r\n`);
    socket.on("data", (d) => {
      data += d.toString("utf8");
      const match = /\{"backlogMs":([\d.]+)\}/.exec(data);
      if (!match) return;
      found.push(Number(match[1]));
      data = "";
      if (found.length < count) send();
      else {
        socket.end();
        resolve(found);
      }
    });
    socket.on("error", reject);
  });
}

describe("the read backlog of a request", () => {
  it("is the time from the connection's accept to its first head; 0 for the next request on it", async () => {
    const [first, second] = await backlogs(300, 2);
    expect(first).toBeGreaterThanOrEqual(250);
    expect(first).toBeLessThan(2_000);
    expect(second).toBe(0);
  });

  it("is near 0 when the head comes with the connection", async () => {
    const [only] = await backlogs(0, 1);
    expect(only).toBeLessThan(100);
  });
});
