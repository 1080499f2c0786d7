// What Node's own HTTP parser refuses never reaches a route: the server's
// 'clientError' answers it (src/server/http-guard.ts) with problem+json and a
// request id instead of Node's bare status line — 405 with Allow for a method
// the parser does not know, 431 for a head over its size limit, 400 for a
// request that is not HTTP/1.1 (Content-Length beside Transfer-Encoding, a bad
// header) — and the API root answers 404 problem+json, not the HTML page.
import net from "node:net";
import { expect, test } from "@playwright/test";
import { BASE_URL } from "../support/api";

const { hostname, port } = new URL(BASE_URL);
const HOST = `Host: ${hostname}:${port}\r\n`;

/** Sends `text` as is on a fresh connection; returns what came back before the server closed it. */
function send(text: string) {
  return new Promise<{ status: number; headers: Record<string, string>; body: string }>((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(text));
    const chunks: Buffer[] = [];
    socket.setTimeout(15_000, () => socket.destroy(new Error("no answer")));
    socket.on("data", (d: Buffer) => chunks.push(d));
    // The server may close while a long head is still being sent: what it answered is what counts.
    socket.on("error", (err: NodeJS.ErrnoException) =>
      err.code === "ECONNRESET" || err.code === "EPIPE" ? undefined : reject(err),
    );
    socket.on("close", () => {
      const data = Buffer.concat(chunks).toString("utf8");
      const at = data.indexOf("\r\n\r\n");
      const [statusLine = "", ...lines] = data.slice(0, at < 0 ? data.length : at).split("\r\n");
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(" ")[1] ?? 0), headers, body: at < 0 ? "" : data.slice(at + 4) });
    });
  });
}

/** A complete problem+json answer with the given status and code. */
function expectProblem(res: Awaited<ReturnType<typeof send>>, status: number, code: string) {
  expect(res.status, JSON.stringify(res)).toBe(status);
  expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  expect(Number(res.headers["content-length"])).toBe(Buffer.byteLength(res.body));
  const body = JSON.parse(res.body);
  expect(body).toMatchObject({ status, code, requestId: res.headers["x-request-id"] });
  expect(body.requestId).toMatch(/^req_/);
  return body;
}

test("requests Node's parser refuses answer problem+json: unknown method 405, oversized head 431, malformed 400", async () => {
  for (const target of ["/api/v1/business/policies", "/dashboard"]) {
    const res = await send(`FOO ${target} HTTP/1.1\r\n${HOST}Connection: close\r\n\r\n`);
    expectProblem(res, 405, "method_not_allowed");
    expect(res.headers.allow).toBe("GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE");
  }

  expectProblem(
    await send(`GET /api/v1/business/policies HTTP/1.1\r\n${HOST}X-Big: ${"a".repeat(64 * 1024)}\r\nConnection: close\r\n\r\n`),
    431,
    "headers_too_large",
  );
  // Many headers adding up past the limit count alike.
  const many = Array.from({ length: 200 }, (_, i) => `X-H${i}: ${"b".repeat(500)}\r\n`).join("");
  expectProblem(await send(`GET /api/health HTTP/1.1\r\n${HOST}${many}Connection: close\r\n\r\n`), 431, "headers_too_large");

  // Request smuggling's classic: Content-Length beside Transfer-Encoding.
  expectProblem(
    await send(
      `POST /api/v1/business/policies HTTP/1.1\r\n${HOST}Content-Length: 5\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n`,
    ),
    400,
    "malformed_request",
  );
  for (const text of [
    `GET /api/health HTTP/1.1\r\n${HOST}Bad Header: x\r\n\r\n`, // a space in a header name
    `GET /api/health HTTP/9.9\r\n${HOST}\r\n`,
    `POST /api/v1/claims HTTP/1.1\r\n${HOST}Transfer-Encoding: chunked\r\n\r\nzz\r\n`, // a chunk size that is not hex
  ]) {
    expectProblem(await send(text), 400, "malformed_request");
  }
});

test("the API root answers 404 problem+json, with or without its slash or a query", async () => {
  for (const target of ["/api/v1", "/api/v1/", "/api/v1?x=1", "/api/v1/?x=1"]) {
    for (const method of ["GET", "POST"]) {
      const res = await send(
        `${method} ${target} HTTP/1.1\r\n${HOST}X-Request-Id: req-root-1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      );
      expect(res.status, `${method} ${target}`).toBe(404);
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(res.body)).toMatchObject({ status: 404, code: "not_found", requestId: "req-root-1" });
    }
  }
  // The endpoints under it are unchanged.
  const spec = await send(`GET /api/v1/openapi.json HTTP/1.1\r\n${HOST}Connection: close\r\n\r\n`);
  expect(spec.status).toBe(200);
});
