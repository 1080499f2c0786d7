// A local stand-in for Paystack's REST API, for the payment and payout tests:
// it reads each JSON request, records it, refuses a wrong secret key like
// Paystack (401), and hands the rest to the test's own routes (404 otherwise).
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: Record<string, unknown> | null;
}

export type Reply = (status: number, body: unknown) => void;

export function fakePaystack(opts: {
  secret: string;
  /** Every request, in order (the test may clear it). */
  requests: FakeRequest[];
  /** Answers a request through `reply`; a request it does not answer gets 404. */
  route: (req: FakeRequest, reply: Reply) => void;
}) {
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
    req.on("end", () => {
      let replied = false;
      const reply: Reply = (status, body) => {
        replied = true;
        res.writeHead(status, { "Content-Type": "application/json" });
        res.end(JSON.stringify(body));
      };
      const request: FakeRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        authorization: req.headers.authorization,
        body: raw ? (JSON.parse(raw) as Record<string, unknown>) : null,
      };
      opts.requests.push(request);
      if (request.authorization !== `Bearer ${opts.secret}`) return reply(401, { status: false, message: "Invalid key" });
      opts.route(request, reply);
      if (!replied) reply(404, { status: false, message: "Not found" });
    });
  });
  return {
    /** Listens on a free local port; returns its base URL. */
    async start(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
