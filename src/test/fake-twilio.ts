// A local stand-in for Twilio's Messages API, for the SMS tests (point the SDK at it with
// TWILIO_API_URL): POST /2010-04-01/Accounts/{AccountSid}/Messages.json, form-encoded
// To/From/Body, HTTP Basic auth with the account SID and auth token. It records every
// request, refuses wrong credentials like Twilio (401, error 20003), and answers each
// message as the test chooses: accepted ("queued"), a Twilio error, or never.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface TwilioRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  /** The form fields (To, From, Body, …). */
  form: Record<string, string>;
  /** What the fake answered (none while it hangs). */
  response?: { status: number; body: unknown };
}

/** "queued": 201 with a message resource; an error: Twilio's error JSON; "hang": no answer at all. */
export type TwilioAnswer = "queued" | { status: number; code: number; message: string } | "hang";

/** Twilio's own errors for the common cases. */
export const twilioErrors = {
  invalidTo: (to: string) => ({ status: 400, code: 21211, message: `The 'To' number ${to} is not a valid phone number.` }),
  internal: { status: 500, code: 20500, message: "An internal server error has occurred" },
  tooManyRequests: { status: 429, code: 20429, message: "Too Many Requests" },
};

export function fakeTwilio(opts: {
  accountSid: string;
  authToken: string;
  /** Every request, in order (the test may clear it). */
  requests: TwilioRequest[];
  /** How to answer a well-formed, authenticated message; "queued" when absent. */
  answer?: (req: TwilioRequest) => TwilioAnswer;
}) {
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
    req.on("end", () => {
      const reply = (status: number, body: unknown) => {
        request.response = { status, body };
        res.writeHead(status, { "Content-Type": "application/json; charset=utf-8" });
        res.end(JSON.stringify(body));
      };
      const error = (status: number, code: number, message: string) =>
        reply(status, { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });
      const request: TwilioRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        authorization: req.headers.authorization,
        contentType: req.headers["content-type"],
        form: Object.fromEntries(new URLSearchParams(raw)),
      };
      opts.requests.push(request);
      const basic = `Basic ${Buffer.from(`${opts.accountSid}:${opts.authToken}`).toString("base64")}`;
      if (request.authorization !== basic) return error(401, 20003, "Authenticate");
      const uri = `/2010-04-01/Accounts/${opts.accountSid}/Messages.json`;
      if (request.method !== "POST" || request.path !== uri) {
        return error(404, 20404, `The requested resource ${request.path} was not found`);
      }
      const { To: to, From: from, Body: body } = request.form;
      if (!to) return error(400, 21604, "A 'To' phone number is required.");
      if (!from) return error(400, 21603, "A 'From' or 'MessagingServiceSid' parameter is required to send a message.");
      if (!body) return error(400, 21602, "Message body is required.");
      const answer = opts.answer?.(request) ?? "queued";
      if (answer === "hang") return; // the socket stays open until the test stops the fake
      if (answer !== "queued") return error(answer.status, answer.code, answer.message);
      const sid = `SM${crypto.randomBytes(16).toString("hex")}`;
      const now = new Date().toUTCString().replace("GMT", "+0000");
      reply(201, {
        account_sid: opts.accountSid,
        api_version: "2010-04-01",
        body,
        date_created: now,
        date_sent: null,
        date_updated: now,
        direction: "outbound-api",
        error_code: null,
        error_message: null,
        from,
        messaging_service_sid: null,
        num_media: "0",
        num_segments: "1",
        price: null,
        price_unit: "USD",
        sid,
        status: "queued",
        subresource_uris: { media: `/2010-04-01/Accounts/${opts.accountSid}/Messages/${sid}/Media.json` },
        to,
        uri: `/2010-04-01/Accounts/${opts.accountSid}/Messages/${sid}.json`,
      });
    });
  });
  return {
    /** Listens on a free local port; returns its base URL (for TWILIO_API_URL). */
    async start(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    /** Stops listening and drops every connection, answered or not. */
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
