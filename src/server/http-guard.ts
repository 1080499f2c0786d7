// Requests Next cannot take, answered at the HTTP server before Next sees them.
// A method outside the seven Next routes (TRACE, TRACK, PROPFIND, …) makes
// Next's own Request construction throw (500, with a stack in the log), and a
// path with a malformed percent-encoding (`%ff`, `%E0%A4%A`, …) fails Next's
// param decoding (500 text/plain under `next start`). Neither can be caught in
// a route handler or in proxy.ts, which both run after that point, so the
// guard hooks the Node server that `next start` and `next dev` create.
// API paths answer problem+json with a request id; pages render the app's
// not-found page. What Node's own parser refuses (a method it does not know,
// a head over its size limit, Content-Length beside Transfer-Encoding, …)
// never becomes a request: the server's 'clientError' answers it here as
// problem+json (405, 431, 400) instead of Node's bare status line. The API
// root (`/api/v1`, `/api/v1/`) is no endpoint: 404 problem+json. Every request
// counts as in flight from its head until its answer has ended and its
// handler has returned (`requestsInFlight`), so a shutdown waits for it
// whatever route serves it, and never closes the database under a handler
// whose client has left.
import http from "node:http";
import type net from "node:net";
import { Readable, type Duplex } from "node:stream";
import { pipeline } from "node:stream/promises";
import { env } from "@/server/env";
import { AppError } from "@/server/errors";
import { logger } from "@/server/logger";
import { requestIdOf } from "@/server/request-id";
import { PROBLEM_CONTENT_TYPE, problemBody } from "@/server/rest/problem";

const METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"];
export const ALLOW = METHODS.join(", ");
/** A path no route matches: rewriting to it renders the app's not-found page (404). */
export const NOT_FOUND_PATH = "/_not-a-page";

export type Verdict = { kind: "pass" } | { kind: "not_found_page" } | { kind: "refuse"; error: AppError; allow?: string };

function pathOf(url: string): string {
  const path = url.startsWith("/") ? url : url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, "");
  return path.split(/[?#]/, 1)[0] ?? "";
}

/** True when a path segment is not a valid percent-encoding of UTF-8. */
export function hasMalformedEncoding(path: string): boolean {
  return path.split("/").some((segment) => {
    try {
      decodeURIComponent(segment);
      return false;
    } catch {
      return true;
    }
  });
}

export const isApiPath = (path: string) => path === "/api" || path.startsWith("/api/");

/** What to do with a request, from its method and raw request target. */
export function inspect(method: string, url: string): Verdict {
  const path = pathOf(url);
  if (!METHODS.includes(method.toUpperCase())) {
    return {
      kind: "refuse",
      error: new AppError("method_not_allowed", `${method} is not a method this server supports`),
      allow: ALLOW,
    };
  }
  if (hasMalformedEncoding(path)) {
    if (!isApiPath(path)) return { kind: "not_found_page" };
    return { kind: "refuse", error: new AppError("invalid_path", "The path holds a malformed percent-encoding") };
  }
  if (path === "/api/v1" || path === "/api/v1/") {
    return {
      kind: "refuse",
      error: new AppError("not_found", "No endpoint here: the API's endpoints are listed in /api/v1/openapi.json"),
    };
  }
  return { kind: "pass" };
}

function refuse(req: http.IncomingMessage, res: http.ServerResponse, verdict: Extract<Verdict, { kind: "refuse" }>) {
  const requestId = requestIdOf(new Headers({ "x-request-id": String(req.headers["x-request-id"] ?? "") }));
  const api = isApiPath(pathOf(req.url ?? "/"));
  const body = api ? problemBody(verdict.error, requestId) : `${verdict.error.title}\n`;
  res.writeHead(verdict.error.status, {
    "Content-Type": api ? PROBLEM_CONTENT_TYPE : "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "X-Request-Id": requestId,
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
    ...(verdict.allow ? { Allow: verdict.allow } : {}),
  });
  res.end(req.method === "HEAD" ? undefined : body);
  // Drain (and drop) any body the client sends.
  req.resume();
  logger.info(
    {
      requestId,
      method: req.method,
      route: pathOf(req.url ?? "/").slice(0, 200),
      status: verdict.error.status,
      code: verdict.error.code,
    },
    "request refused before routing",
  );
}

/** CONNECT is not a request the app serves: 405 (problem+json on API paths) rather than a dropped connection. */
function refuseConnect(req: http.IncomingMessage, socket: Duplex) {
  const requestId = requestIdOf(new Headers({ "x-request-id": String(req.headers["x-request-id"] ?? "") }));
  const error = new AppError("method_not_allowed", "CONNECT is not a method this server supports");
  const api = isApiPath(pathOf(req.url ?? "/"));
  const body = api ? problemBody(error, requestId) : `${error.title}\n`;
  socket.end(
    "HTTP/1.1 405 Method Not Allowed\r\n" +
      `Content-Type: ${api ? PROBLEM_CONTENT_TYPE : "text/plain; charset=utf-8"}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `Allow: ${ALLOW}\r\nX-Request-Id: ${requestId}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n` +
      body,
  );
  logger.info(
    { requestId, method: "CONNECT", route: pathOf(req.url ?? "/").slice(0, 200), status: 405 },
    "request refused before routing",
  );
}

/** The problem a parse error of Node's HTTP parser answers with (see `answerParseError`). */
export function parseErrorProblem(code: string | undefined): { error: AppError; allow?: string } {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return { error: new AppError("headers_too_large", "The request's head is over the server's size limit") };
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return { error: new AppError("payload_too_large", "The chunk extensions are over the server's size limit") };
    case "HPE_INVALID_METHOD":
      return { error: new AppError("method_not_allowed", "The method is not one this server supports"), allow: ALLOW };
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return { error: new AppError("request_timeout", "The request did not arrive in time") };
    default:
      return { error: new AppError("malformed_request", "The request is not valid HTTP/1.1") };
  }
}

/**
 * The server's 'clientError': a request Node's parser refused (or a timeout)
 * is answered with a complete problem+json response, as Node itself would
 * answer it (only when no answer has begun on the connection), and the
 * connection ends. A connection the client reset or closed gets nothing.
 */
function answerParseError(err: NodeJS.ErrnoException, socket: Duplex) {
  const inProgress = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  // Reset, or closed mid-request (HPE_INVALID_EOF_STATE): the client is gone, and its request (if any) logs the abort.
  const clientLeft = err.code === "ECONNRESET" || err.code === "HPE_INVALID_EOF_STATE";
  if (!clientLeft && socket.writable && !inProgress?.headersSent) {
    const { error, allow } = parseErrorProblem(err.code);
    const requestId = requestIdOf(new Headers());
    const body = problemBody(error, requestId);
    socket.write(
      `HTTP/1.1 ${error.status} ${http.STATUS_CODES[error.status] ?? error.title}\r\n` +
        `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\n` +
        (allow ? `Allow: ${allow}\r\n` : "") +
        `Connection: close\r\n\r\n${body}`,
    );
    logger.info({ requestId, parseError: err.code, status: error.status }, "request refused by the HTTP parser");
  }
  socket.destroy();
}

/**
 * A request answered before its body arrived whole (413 on a streamed body)
 * leaves the rest of that body on the connection, where it would be read as
 * the next request: such an answer says `Connection: close` and the connection
 * ends with it. (Next drops a route handler's Connection header, so this is
 * decided here, when the head of the answer is written.)
 */
function closeWhenBodyUnread(req: http.IncomingMessage, res: http.ServerResponse) {
  const writeHead = res.writeHead;
  res.writeHead = function (this: http.ServerResponse, ...args: Parameters<typeof writeHead>) {
    if (!req.complete) this.shouldKeepAlive = false;
    return Reflect.apply(writeHead, this, args) as http.ServerResponse;
  } as typeof writeHead;
}

/** How long, and how much, a connection answered before its body arrived keeps reading it (see `lingerAfterAnswer`). */
const LINGER_MS = 5_000;
const lingerCap = () => 4 * (Math.max(env.API_MAX_BODY_BYTES, env.MAX_UPLOAD_BYTES) + 1024 * 1024);

/**
 * A lingering close, as nginx does after an early 413: the answer goes out and
 * the server's side of the connection is shut (FIN), but what the client is
 * still sending is read and thrown away — for at most LINGER_MS and
 * `lingerCap()` bytes — before the socket is destroyed. Destroying it with
 * unread bytes in the kernel's buffer sends a reset, and a client still
 * writing (most HTTP clients read the answer only after sending the body)
 * then loses the 413 to EPIPE/ECONNRESET.
 */
function lingerAfterAnswer(req: http.IncomingMessage) {
  const socket = req.socket as net.Socket & { destroySoon?: () => void };
  if (!socket || socket.destroyed) return;
  socket.destroySoon = function lingeringClose(this: net.Socket) {
    let seen = 0;
    const close = () => {
      clearTimeout(timer);
      this.destroy();
    };
    const timer = setTimeout(close, LINGER_MS);
    timer.unref();
    this.on("data", (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > lingerCap()) close();
    });
    this.once("end", close);
    this.once("error", close);
    this.end();
    this.resume();
  };
}

/** The REST API, served straight from the HTTP server (see `serveApi`). */
export type ApiHandler = (request: Request) => Promise<Response>;
/** Headers next.config.js gives every answer; the API path answers them itself. */
const API_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
};
const API_V1 = "/api/v1/";

const g = globalThis as unknown as {
  __coverdeskHttpGuard?: boolean;
  __coverdeskApiHandler?: ApiHandler;
  __coverdeskInFlight?: number;
};

/**
 * HTTP requests whose head has arrived and that are not done: what a shutdown
 * waits for. A request is done once its answer has been sent (or its
 * connection closed) *and* every handler working on it has returned — a
 * client that leaves early ends the answer, not the handler, which may still
 * be writing to the database. Kept on globalThis, as the route bundles and the
 * server's own share one count.
 */
export const requestsInFlight = () => g.__coverdeskInFlight ?? 0;

/** Counts a request in flight; `hold(work)` keeps it counted until `work` settles too. */
function countInFlight(res: http.ServerResponse): { hold: (work: unknown) => void } {
  g.__coverdeskInFlight = requestsInFlight() + 1;
  let pending = 1; // the answer
  const settle = () => {
    if (--pending === 0) g.__coverdeskInFlight = requestsInFlight() - 1;
  };
  let answered = false;
  const done = () => {
    if (answered) return;
    answered = true;
    settle();
  };
  res.once("finish", done);
  res.once("close", done);
  return {
    hold(work) {
      if (!work || typeof (work as PromiseLike<unknown>).then !== "function") return;
      pending++;
      // A rejection stays unhandled, as it was before the guard held it (the process's handler reports it).
      void (work as PromiseLike<unknown>).then(settle, (err: unknown) => {
        settle();
        throw err;
      });
    },
  };
}

/**
 * Hands /api/v1 requests to the REST handler directly — one process, one
 * port, but none of Next's routing, rendering and header machinery per API
 * call (the REST adapter is framework-free and needs none of it).
 */
export function serveApiDirectly(handler: ApiHandler): void {
  g.__coverdeskApiHandler = handler;
}

/** When each connection was accepted, until its first request's head has been read (performance.now()). */
const acceptedAt = new WeakMap<object, number>();
/** REST requests made here: how long their head waited to be read after their connection was accepted. */
const backlogOf = new WeakMap<Request, number>();

/**
 * How long `request`'s head waited to be read after its connection was
 * accepted (ms): how far behind its arrival this process is reading, when the
 * process is busy (its event loop reads the heads of accepted connections only
 * between other work). 0 for a later request on a kept-alive connection, and
 * for one this server did not hand over itself.
 */
export const readBacklogMs = (request: Request) => backlogOf.get(request) ?? 0;

function toRequest(req: http.IncomingMessage, backlogMs = 0): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const method = req.method ?? "GET";
  const bodyless = method === "GET" || method === "HEAD";
  const request = new Request(`http://${API_HOST}${req.url ?? "/"}`, {
    method,
    headers,
    body: bodyless ? undefined : bodyOf(req),
    // @ts-expect-error -- Node's fetch needs it for a streamed body; the DOM types do not know it.
    duplex: bodyless ? undefined : "half",
  });
  if (backlogMs > 0) backlogOf.set(request, backlogMs);
  return request;
}
/**
 * The request's body as a web stream that reads only as fast as the handler
 * does, and that lets go of the request (without destroying it) when the
 * handler answers without reading it all — see `drain`.
 */
function bodyOf(req: http.IncomingMessage): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on("data", (chunk: Buffer) => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.once("end", () => {
          try {
            controller.close();
          } catch {
            // already cancelled
          }
        });
        req.once("error", (err) => {
          try {
            controller.error(err);
          } catch {
            // already cancelled
          }
        });
        req.pause();
      },
      pull() {
        req.resume();
      },
      cancel() {
        req.removeAllListeners("data");
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}

/**
 * Reads and drops what is left of a body the handler answered without (a 401
 * or 403 before the upload was read), so the client can finish sending and
 * keep its connection — as long as the rest is no bigger than an accepted
 * body could be. Beyond that, or after 10 s, the answer goes out and the
 * connection closes (see `closeWhenBodyUnread`).
 */
const drainCap = () => Math.max(env.API_MAX_BODY_BYTES, env.MAX_UPLOAD_BYTES) + 1024 * 1024;

/**
 * Whether the rest of an unread body is read (and thrown away) before the
 * answer. Always, but for a 413: that one only when its declared length is
 * within what `drain` reads (a JSON body a little over its 1 MiB, say) — else
 * (chunked, or larger) it goes out at once and the connection closes. Closing
 * while the client is still sending makes the kernel reset the connection, and
 * a client that has not yet read the answer then loses it ("fetch failed").
 */
function drainsBefore(req: http.IncomingMessage, status: number): boolean {
  if (req.complete || req.destroyed) return false;
  if (status !== 413) return true;
  const declared = Number(req.headers["content-length"]);
  return Number.isFinite(declared) && declared <= drainCap();
}

async function drain(req: http.IncomingMessage): Promise<void> {
  const cap = drainCap();
  req.removeAllListeners("data");
  await new Promise<void>((resolve) => {
    let seen = 0;
    const done = () => {
      clearTimeout(timer);
      req.removeListener("data", count);
      req.pause();
      resolve();
    };
    const count = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > cap) done();
    };
    const timer = setTimeout(done, 10_000);
    req.on("data", count);
    req.once("end", done);
    req.once("close", done);
    req.resume();
  });
}

/** The REST handler never builds absolute links from the request (APP_URL does); a fixed host keeps a hostile Host header out. */
const API_HOST = "api.internal";

async function serveApi(
  handler: ApiHandler,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  backlogMs: number,
): Promise<void> {
  let response: Response;
  try {
    response = await handler(toRequest(req, backlogMs));
  } catch (err) {
    const requestId = requestIdOf(new Headers({ "x-request-id": String(req.headers["x-request-id"] ?? "") }));
    logger.error({ err, requestId, method: req.method }, "unhandled error before the REST handler");
    const body = problemBody(new AppError("internal_error"), requestId);
    res.writeHead(500, { ...API_HEADERS, "Content-Type": PROBLEM_CONTENT_TYPE, "X-Request-Id": requestId });
    res.end(body);
    return;
  }
  // (A client that left has nothing more to send.)
  if (drainsBefore(req, response.status)) await drain(req);
  // What is still unread (a 413 answered at once, or a body over what drain reads) is read after the answer.
  if (!req.complete && !req.destroyed) lingerAfterAnswer(req);
  res.statusCode = response.status;
  for (const [name, value] of Object.entries(API_HEADERS)) res.setHeader(name, value);
  for (const [name, value] of response.headers) res.setHeader(name, value);
  if (!response.body || req.method === "HEAD") {
    res.end();
    void response.body?.cancel().catch(() => {});
    return;
  }
  const type = response.headers.get("content-type") ?? "";
  if (type.includes("json")) {
    const body = Buffer.from(await response.arrayBuffer());
    res.setHeader("Content-Length", body.length);
    res.end(body);
    return;
  }
  // Files stream through.
  await pipeline(Readable.fromWeb(response.body as import("node:stream/web").ReadableStream), res).catch(() => res.destroy());
}

/** Hooks every Node HTTP server of this process (once) so that the guard runs before Next. */
export function installHttpGuard(): void {
  if (g.__coverdeskHttpGuard) return;
  g.__coverdeskHttpGuard = true;
  const emit = http.Server.prototype.emit;
  const hooked = new WeakSet<http.Server>();
  http.Server.prototype.emit = function guardedEmit(this: http.Server, event: string | symbol, ...args: never[]): boolean {
    // Hooked at its first event (a connection, before any of its bytes are parsed): `next start` listens before the guard is installed.
    if (!hooked.has(this)) {
      hooked.add(this);
      if (this.listenerCount("connect") === 0) this.on("connect", refuseConnect);
      if (this.listenerCount("clientError") === 0) this.on("clientError", answerParseError);
    }
    if (event === "connection") acceptedAt.set(args[0] as unknown as object, performance.now());
    if (event === "request") {
      const [req, res] = args as unknown as [http.IncomingMessage, http.ServerResponse];
      const flight = countInFlight(res);
      const accepted = acceptedAt.get(req.socket);
      acceptedAt.delete(req.socket);
      const backlogMs = accepted === undefined ? 0 : performance.now() - accepted;
      const verdict = inspect(req.method ?? "GET", req.url ?? "/");
      if (verdict.kind === "refuse") {
        refuse(req, res, verdict);
        return true;
      }
      if (verdict.kind === "not_found_page") req.url = NOT_FOUND_PATH;
      closeWhenBodyUnread(req, res);
      const api = g.__coverdeskApiHandler;
      if (api && req.url?.startsWith(API_V1)) {
        flight.hold(serveApi(api, req, res, backlogMs));
        return true;
      }
      // Next's request listener is async: it returns once the route handler or the render is done. `emit`
      // drops what listeners return, so they are called here and their promises held (a `once` wrapper
      // from rawListeners removes itself and returns its listener's value).
      const listeners = this.rawListeners("request") as ((...a: unknown[]) => unknown)[];
      for (const listener of listeners) flight.hold(Reflect.apply(listener, this, args));
      return listeners.length > 0;
    }
    return Reflect.apply(emit, this, [event, ...args]) as boolean;
  } as typeof emit;
}
