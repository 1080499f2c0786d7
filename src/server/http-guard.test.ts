// The guard in front of Next, on a real Node HTTP server: unknown methods
// answer 405 with Allow, malformed percent-encodings 400 invalid_path on API
// paths and the not-found page elsewhere; everything else passes untouched.
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALLOW, installHttpGuard, NOT_FOUND_PATH, requestsInFlight } from "./http-guard";

let server: http.Server;
let port: number;

beforeAll(async () => {
  installHttpGuard();
  server = http.createServer((req, res) => res.end(`reached ${req.method} ${req.url}`));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** Sends a raw HTTP/1.1 request (any method, any target) and returns status line, headers and body. */
function raw(method: string, target: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.write(`${method} ${target} HTTP/1.1\r\nHost: x\r\nX-Request-Id: req-guard-1\r\nConnection: close\r\n\r\n`);
    });
    let data = "";
    socket.on("data", (d) => (data += d.toString("utf8")));
    socket.on("error", reject);
    socket.on("close", () => {
      const [head = "", body = ""] = data.split("\r\n\r\n");
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(" ")[1] ?? 0), headers, body });
    });
  });
}

describe("http guard", () => {
  it("answers methods the server does not know with 405 and Allow, on API paths as problem+json", async () => {
    for (const method of ["TRACE", "PROPFIND", "MKCOL", "PURGE"]) {
      const api = await raw(method, "/api/v1/business/policies");
      expect(api.status, method).toBe(405);
      expect(api.headers.allow).toBe(ALLOW);
      expect(api.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(api.headers["x-request-id"]).toBe("req-guard-1");
      expect(JSON.parse(api.body)).toMatchObject({ status: 405, code: "method_not_allowed", requestId: "req-guard-1" });
      const page = await raw(method, "/policies");
      expect(page.status).toBe(405);
      expect(page.headers.allow).toBe(ALLOW);
    }
    const connect = await raw("CONNECT", "example.com:443");
    expect(connect.status).toBe(405);
    expect(connect.headers.allow).toBe(ALLOW);
    const connectApi = await raw("CONNECT", "/api/v1/business/policies");
    expect(connectApi.status).toBe(405);
    expect(connectApi.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(connectApi.body)).toMatchObject({ status: 405, code: "method_not_allowed", requestId: "req-guard-1" });
  });

  it("answers malformed percent-encodings with 400 invalid_path on API paths, the not-found page elsewhere", async () => {
    for (const bad of ["%ff", "%", "%zz", "%E0%A4%A", "%ED%A0%80", "%C0%AE%C0%AE"]) {
      for (const api of [`/api/v1/business/policies/${bad}`, `/api/checkout/${bad}`, `/api/trpc/${bad}`]) {
        const res = await raw("GET", api);
        expect(res.status, api).toBe(400);
        expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
        expect(JSON.parse(res.body)).toMatchObject({ code: "invalid_path", requestId: "req-guard-1" });
      }
      for (const page of [`/pay/${bad}`, `/invite/${bad}?x=1`]) {
        expect((await raw("GET", page)).body, page).toBe(`reached GET ${NOT_FOUND_PATH}`);
      }
    }
  });

  it("lets every other request through untouched", async () => {
    for (const [method, target] of [
      ["GET", "/api/v1/business/policies/abc?q=%ff"],
      ["DELETE", "/api/v1/business/policies/caf%C3%A9"],
      ["OPTIONS", "/pay/ref_1"],
      ["PATCH", "/api/v1/x/%00"],
    ]) {
      expect((await raw(method!, target!)).body).toBe(`reached ${method} ${target}`);
    }
  });
});

describe("an answer given before the request body arrived whole", () => {
  // Like a 413 on a streamed body: the handler reads a little, then answers.
  let early: http.Server;
  let earlyPort: number;
  beforeAll(async () => {
    early = http.createServer((req, res) => {
      req.once("data", () => {
        req.pause();
        res.writeHead(413, { "Content-Type": "text/plain" }).end("too large");
      });
      req.once("end", () => res.headersSent || res.end("read whole"));
    });
    await new Promise<void>((r) => early.listen(0, "127.0.0.1", r));
    earlyPort = (early.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => early.close(() => r())));

  /** Streams a chunked body without ending it; resolves with what came back and whether the server closed. */
  function streamed(ending: boolean): Promise<{ head: string; closed: boolean }> {
    return new Promise((resolve) => {
      const socket = net.connect(earlyPort, "127.0.0.1", () => {
        socket.write("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n");
        socket.write(`10\r\n${"x".repeat(16)}\r\n`);
        if (ending) socket.write("0\r\n\r\n");
      });
      let data = "";
      socket.on("data", (d) => (data += d.toString("utf8")));
      socket.on("error", () => {});
      socket.on("close", () => resolve({ head: data, closed: true }));
      setTimeout(() => {
        resolve({ head: data, closed: false });
        socket.destroy();
      }, 1500);
    });
  }

  it("says Connection: close and ends the connection, so the rest of the body is never read as a request", async () => {
    const { head, closed } = await streamed(false);
    expect(head).toMatch(/^HTTP\/1\.1 413/);
    expect(head).toMatch(/\r\nConnection: close\r\n/i);
    expect(closed).toBe(true);
  });
});

/** Sends `text` as is; returns status, headers and body of what came back before the connection closed. */
function rawText(p: number, text: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(p, "127.0.0.1", () => socket.write(text));
    let data = "";
    socket.on("data", (d) => (data += d.toString("utf8")));
    socket.on("error", (err: NodeJS.ErrnoException) =>
      err.code === "ECONNRESET" || err.code === "EPIPE" ? undefined : reject(err),
    );
    socket.on("close", () => {
      const at = data.indexOf("\r\n\r\n");
      const [statusLine = "", ...lines] = data.slice(0, at < 0 ? data.length : at).split("\r\n");
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(" ")[1] ?? 0), headers, body: at < 0 ? "" : data.slice(at + 4) });
    });
  });
}

describe("requests Node's parser refuses, and the API root", () => {
  it("answers them as problem+json with a request id: 405 + Allow, 431, 400", async () => {
    const cases: [string, number, string][] = [
      ["FOO /api/v1/business/policies HTTP/1.1\r\nHost: x\r\n\r\n", 405, "method_not_allowed"],
      [`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(64 * 1024)}\r\n\r\n`, 431, "headers_too_large"],
      [
        "POST /api/v1/claims HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        400,
        "malformed_request",
      ],
      ["GET / HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n", 400, "malformed_request"],
    ];
    for (const [text, status, code] of cases) {
      const res = await rawText(port, text);
      expect(res.status, code).toBe(status);
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(Number(res.headers["content-length"])).toBe(Buffer.byteLength(res.body));
      expect(JSON.parse(res.body)).toMatchObject({ status, code, requestId: res.headers["x-request-id"] });
      if (status === 405) expect(res.headers.allow).toBe(ALLOW);
    }
  });

  it("answers the API root with 404 problem+json, with or without its slash", async () => {
    for (const target of ["/api/v1", "/api/v1/", "/api/v1?x=1"]) {
      const res = await raw("GET", target);
      expect(res.status, target).toBe(404);
      expect(JSON.parse(res.body)).toMatchObject({ code: "not_found", requestId: "req-guard-1" });
    }
  });
});

describe("requests in flight", () => {
  it("counts every request from its head to the end of its answer, and one the client dropped", async () => {
    let release: () => void = () => {};
    const slow = http.createServer((req, res) => {
      req.resume();
      release = () => res.end("done");
    });
    await new Promise<void>((r) => slow.listen(0, "127.0.0.1", r));
    const slowPort = (slow.address() as AddressInfo).port;
    try {
      expect(requestsInFlight()).toBe(0);
      const answer = fetch(`http://127.0.0.1:${slowPort}/anything`, { method: "POST", body: "x" }).then((r) => r.text());
      await expect.poll(requestsInFlight).toBe(1);
      release();
      expect(await answer).toBe("done");
      await expect.poll(requestsInFlight).toBe(0);

      const dropped = net.connect(slowPort, "127.0.0.1", () =>
        dropped.write("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nab"),
      );
      await expect.poll(requestsInFlight).toBe(1);
      dropped.destroy();
      await expect.poll(requestsInFlight).toBe(0);
    } finally {
      await new Promise<void>((r) => slow.close(() => r()));
    }
  });

  it("keeps a request counted while its async handler still runs after the client left (a shutdown must not close the database under it)", async () => {
    let finishHandler: () => void = () => {};
    let handlerDone = false;
    // As Next's listener: async, its promise settles when the route's work is done.
    const working = http.createServer(async (req, res) => {
      req.resume();
      await new Promise<void>((r) => (finishHandler = r));
      handlerDone = true;
      if (!res.destroyed) res.end("late");
    });
    await new Promise<void>((r) => working.listen(0, "127.0.0.1", r));
    const workingPort = (working.address() as AddressInfo).port;
    try {
      expect(requestsInFlight()).toBe(0);
      const client = net.connect(workingPort, "127.0.0.1", () =>
        client.write("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nab"),
      );
      await expect.poll(requestsInFlight).toBe(1);
      client.destroy(); // the answer is over (its connection closed) …
      await new Promise((r) => setTimeout(r, 100));
      expect(requestsInFlight()).toBe(1); // … the handler is not
      finishHandler();
      await expect.poll(() => handlerDone).toBe(true);
      await expect.poll(requestsInFlight).toBe(0);
    } finally {
      finishHandler();
      await new Promise<void>((r) => working.close(() => r()));
    }
  });
});
