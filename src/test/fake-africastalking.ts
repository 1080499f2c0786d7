// A local stand-in for Africa's Talking's SMS API, for the SMS tests (point the SDK at it with
// AFRICASTALKING_API_URL): POST /version1/messaging, form-encoded username/to/message/from, the
// key in an `apiKey` header. It records every request, refuses a wrong key or username like
// Africa's Talking (401, plain text), and answers each message as the test chooses: sent (201,
// status 101 per recipient), refused per recipient (201 with that recipient's status code), an
// HTTP error, or never.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface AfricasTalkingRequest {
  method: string;
  path: string;
  apiKey: string | undefined;
  contentType: string | undefined;
  /** The form fields (username, to, message, from, bulkSMSMode, …). */
  form: Record<string, string>;
  /** What the fake answered (none while it hangs). */
  response?: { status: number; body: unknown };
}

/**
 * "sent": 201, each recipient status 101 "Success". A recipient refusal: 201 with that
 * statusCode/status for each recipient (e.g. 403 "InvalidPhoneNumber"). An HTTP error: that
 * status with a plain-text body. "hang": no answer at all.
 */
export type AfricasTalkingAnswer =
  "sent" | { recipientStatusCode: number; recipientStatus: string } | { httpStatus: number; text: string } | "hang";

/** Africa's Talking's per-recipient refusals and errors for the common cases. */
export const africasTalkingAnswers = {
  invalidPhoneNumber: { recipientStatusCode: 403, recipientStatus: "InvalidPhoneNumber" },
  userInBlacklist: { recipientStatusCode: 406, recipientStatus: "UserInBlacklist" },
  insufficientBalance: { recipientStatusCode: 405, recipientStatus: "InsufficientBalance" },
  gatewayError: { recipientStatusCode: 501, recipientStatus: "GatewayError" },
  internal: { httpStatus: 500, text: "Internal Server Error" },
} satisfies Record<string, AfricasTalkingAnswer>;

export function fakeAfricasTalking(opts: {
  username: string;
  apiKey: string;
  /** Every request, in order (the test may clear it). */
  requests: AfricasTalkingRequest[];
  /** How to answer a well-formed, authenticated message; "sent" when absent. */
  answer?: (req: AfricasTalkingRequest) => AfricasTalkingAnswer;
}) {
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
    req.on("end", () => {
      const text = (status: number, body: string) => {
        request.response = { status, body };
        res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8" });
        res.end(body);
      };
      const json = (status: number, body: unknown) => {
        request.response = { status, body };
        res.writeHead(status, { "Content-Type": "application/json" });
        res.end(JSON.stringify(body));
      };
      const header = req.headers.apikey;
      const request: AfricasTalkingRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        apiKey: Array.isArray(header) ? header[0] : header,
        contentType: req.headers["content-type"],
        form: Object.fromEntries(new URLSearchParams(raw)),
      };
      opts.requests.push(request);
      if (request.method !== "POST" || request.path !== "/version1/messaging") return text(404, "Not Found");
      if (request.apiKey !== opts.apiKey || request.form.username !== opts.username) {
        return text(401, "The supplied authentication is invalid");
      }
      const { to, message } = request.form;
      if (!to) return text(400, "Request is missing required form field 'to'");
      if (!message) return text(400, "Request is missing required form field 'message'");
      const answer = opts.answer?.(request) ?? "sent";
      if (answer === "hang") return; // the socket stays open until the test stops the fake
      if (typeof answer === "object" && "httpStatus" in answer) return text(answer.httpStatus, answer.text);
      const numbers = to.split(",").map((n) => n.trim());
      const sent = answer === "sent";
      const cost = sent ? "NGN 2.2000" : "0";
      json(201, {
        SMSMessageData: {
          Message: sent
            ? `Sent to ${numbers.length}/${numbers.length} Total Cost: NGN ${(2.2 * numbers.length).toFixed(4)}`
            : `Sent to 0/${numbers.length} Total Cost: 0`,
          Recipients: numbers.map((number) => ({
            statusCode: sent ? 101 : answer.recipientStatusCode,
            number,
            status: sent ? "Success" : answer.recipientStatus,
            cost,
            messageId: sent ? `ATXid_${crypto.randomBytes(16).toString("hex")}` : "None",
          })),
        },
      });
    });
  });
  return {
    /** Listens on a free local port; returns its base URL (for AFRICASTALKING_API_URL). */
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
