// The guides /docs opens on, above the reference. Their facts follow the README
// ("Quick start", "Your first API key", "Test mode", "Receiving webhooks") and
// the code they describe (errors.ts, rest/idempotency.ts, schemas/pagination.ts).
import type { ReactNode } from "react";
import { C, Code } from "./ui";

export const GUIDES = [
  { id: "quick-start", title: "Quick start" },
  { id: "webhooks", title: "Receiving webhooks" },
  { id: "test-mode", title: "Test mode" },
  { id: "errors", title: "Errors and idempotency" },
  { id: "pagination", title: "Pagination" },
  { id: "typed-client", title: "The typed client" },
] as const;

function Guide({ id, children }: { id: (typeof GUIDES)[number]["id"]; children: ReactNode }) {
  const title = GUIDES.find((g) => g.id === id)!.title;
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-20 border-b border-slate-200 py-8">
      <h2 id={`${id}-title`} className="text-2xl font-semibold tracking-tight text-slate-900">
        <a href={`#${id}`} className="hover:underline">
          {title}
        </a>
      </h2>
      <div className="mt-3 space-y-3 text-[15px] leading-7 text-slate-700">{children}</div>
    </section>
  );
}

const H3 = ({ children }: { children: ReactNode }) => <h3 className="pt-2 text-lg font-semibold text-slate-900">{children}</h3>;
const List = ({ children }: { children: ReactNode }) => <ul className="list-disc space-y-1.5 pl-5">{children}</ul>;

export function Guides({ baseUrl }: { baseUrl: string }) {
  return (
    <>
      <Guide id="quick-start">
        <p>
          From nothing to a paid policy in test mode: an API key, a policy, a payment through the hosted checkout, and its
          verification. Every call sends <C>Authorization: Bearer &lt;API key&gt;</C> to <C>{baseUrl}</C>.
        </p>
        <H3>1. Get an API key</H3>
        <List>
          <li>
            <strong>Dashboard:</strong> sign up (this creates your user and your organization, with you as its owner), open{" "}
            <strong>API keys → Create key</strong> and copy it — it is shown once. Choose the test mode for a <C>cd_test_…</C>{" "}
            key.
          </li>
          <li>
            <strong>Headless:</strong> with the app stopped (the embedded database is single-process) or against PostgreSQL,{" "}
            <C>npm run bootstrap</C> makes the organization, its owner and both keys. It is idempotent on email + organization
            name (a rerun reuses both and prints new keys).
          </li>
        </List>
        <Code label="Bootstrap an organization and its keys">{`npm run bootstrap -- --org "Acme Ltd" --email owner@acme.test [--password "…"]
# {"organizationId":"…","userId":"…","apiKey":"cd_live_…","testApiKey":"cd_test_…"}`}</Code>
        <H3>2. Create a policy</H3>
        <p>
          <C>price</C> is a decimal string per <C>duration</C>; the answer (201) is the policy, with its <C>id</C>.
        </p>
        <Code label="Create a policy with curl">{`curl -X POST ${baseUrl}/business/policies \\
  -H "Authorization: Bearer cd_test_…" \\
  -H "Content-Type: application/json" \\
  -H "Idempotency-Key: $(uuidgen)" \\
  -d '{"name":"Shop cover","type":"property","duration":"yearly","price":"150.00"}'`}</Code>
        <H3>3. Take a first payment</H3>
        <p>
          Initialize a payment for the policy: <C>amount</C> must equal its price (422 <C>amount_mismatch</C>
          otherwise). The answer (201) carries the payment&apos;s <C>reference</C> and its <C>authorizationUrl</C>.
        </p>
        <Code label="Initialize a payment with curl">{`curl -X POST ${baseUrl}/payments/initialize \\
  -H "Authorization: Bearer cd_test_…" \\
  -H "Content-Type: application/json" \\
  -H "Idempotency-Key: $(uuidgen)" \\
  -d '{"policyId":"<policy id>","amount":150,"email":"customer@example.com","callbackUrl":"https://example.com/thanks"}'`}</Code>
        <p>
          Send the customer to <C>authorizationUrl</C>: the hosted checkout. In test mode it says <em>TEST</em> and takes the card{" "}
          <C>4242 4242 4242 4242</C>. Afterwards it sends the customer to <C>callbackUrl</C> with <C>?reference=</C>. Then check
          the payment on your server — once paid it carries the coverage:
        </p>
        <Code label="Verify a payment with curl">{`curl ${baseUrl}/payments/verify/<reference> \\
  -H "Authorization: Bearer cd_test_…"`}</Code>
        <p>
          Rather than polling, subscribe to <C>payment.completed</C> and <C>policy.purchased</C>:{" "}
          <a className="font-medium text-brand-700 underline" href="#webhooks">
            Receiving webhooks
          </a>
          .
        </p>
      </Guide>

      <Guide id="webhooks">
        <p>
          Register an endpoint on the <strong>Webhooks</strong> page or with <C>POST /api/v1/business/webhooks</C> (
          <C>{"{url, events, secret?}"}</C>; the secret is shown once). Each event arrives as <C>POST &lt;url&gt;</C> with the
          JSON body <C>{`{"id":"evt_…","type":"claim.submitted","createdAt":"…","livemode":false,"data":{…}}`}</C>. The events:{" "}
          <C>payment.completed</C>, <C>payment.failed</C>, <C>policy.purchased</C>, <C>policy.renewed</C>, <C>coverage.updated</C>
          , <C>claim.submitted</C>, <C>coverage.expiring</C>, <C>coverage.expired</C>.
        </p>
        <H3>Verify the signature</H3>
        <p>Verify each delivery before trusting it — either way works:</p>
        <List>
          <li>
            <C>X-Coverdesk-Signature</C>: the hex HMAC-SHA256 of the raw body with your secret.
          </li>
          <li>
            Standard Webhooks: <C>webhook-id</C>, <C>webhook-timestamp</C> and <C>webhook-signature</C> (with the{" "}
            <C>standardwebhooks</C> package; the timestamp must be within 5 minutes).
          </li>
        </List>
        <Code label="Verify a delivery in Node.js">{`// 1. Coverdesk's own header: hex HMAC-SHA256 of the raw body with your secret.
import crypto from "node:crypto";
function verifyCoverdesk(rawBody, signatureHeader, secret) {
  const expected = Buffer.from(crypto.createHmac("sha256", secret).update(rawBody).digest("hex"));
  const given = Buffer.from(signatureHeader ?? "");
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}
// in an Express handler with express.raw({ type: "application/json" }):
//   if (!verifyCoverdesk(req.body, req.get("X-Coverdesk-Signature"), process.env.COVERDESK_WEBHOOK_SECRET)) return res.sendStatus(400);

// 2. Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature), with the \`standardwebhooks\` package.
import { Webhook } from "standardwebhooks";
const secret = process.env.COVERDESK_WEBHOOK_SECRET; // "whsec_…" as we generated it
// For a secret you chose yourself, pass "whsec_" + Buffer.from(yourSecret).toString("base64").
const event = new Webhook(secret).verify(rawBody, {
  "webhook-id": req.get("webhook-id"),
  "webhook-timestamp": req.get("webhook-timestamp"),
  "webhook-signature": req.get("webhook-signature"),
}); // throws when the signature or the timestamp (±5 min) is wrong`}</Code>
        <H3>Retries and auto-disable</H3>
        <p>
          Answer 2xx quickly; anything else (or no answer in 10 s) is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h
          and 24 h with the same event id, so deduplicate on it. <C>410 Gone</C> disables the endpoint, and so do 3 days in which
          every delivery failed (its owners and admins are emailed either way; <C>failingSince</C> on the endpoint shows a streak
          under way). Every attempt is in the delivery log, and can be retried from the dashboard or{" "}
          <C>POST /api/v1/business/webhooks/deliveries/{"{id}"}/retry</C>.
        </p>
        <H3>Rolling the secret</H3>
        <p>
          <C>POST /api/v1/business/webhooks/{"{id}"}/roll-secret</C> (<C>{"{expiresInHours?: 0–72}"}</C>, default 24) — the new
          secret is in that answer only, and until the old one expires every delivery carries a <C>v1,</C> signature per secret in{" "}
          <C>webhook-signature</C> (the new one first; <C>X-Coverdesk-Signature</C> is the new one&apos;s), so the receiver keeps
          verifying while you deploy the new secret.
        </p>
        <H3>Catching up</H3>
        <p>
          <C>GET /api/v1/events</C> (<C>?type</C>, <C>from</C>/<C>to</C> as dates or date-times, <C>cursor</C>) lists the last 30
          days of events, newest first, and <C>GET /api/v1/events/{"{id}"}</C> one — each exactly the body its delivery carried,
          so a receiver that was down can replay what it missed.
        </p>
        <H3>Develop a receiver locally</H3>
        <p>
          No public URL needed: <C>npm run listen</C> streams your organization&apos;s events (<C>GET /api/v1/events/stream</C>,
          Server-Sent Events) and POSTs each to a local URL signed exactly as a delivery, with a secret it prints at start. Use a
          test key (<C>cd_test_…</C>) to see test mode&apos;s events. After a dropped connection it reconnects with the last
          event&apos;s id and receives what it missed, in order, once each.
        </p>
        <Code label="Forward events to a local receiver">{`npm run listen -- --api-key cd_test_… --forward-to http://localhost:4000/webhooks [--api-url http://localhost:3000]
# Ready. Your webhook signing secret is whsec_…   ← give it to your receiver
# 12:00:01  connected to http://localhost:3000
# 12:00:07  --> claim.submitted [evt_…]
# 12:00:07  <-- [200] POST http://localhost:4000/webhooks (12 ms) [evt_…]`}</Code>
      </Guide>

      <Guide id="test-mode">
        <p>Build against Coverdesk without touching real data.</p>
        <List>
          <li>
            <strong>Keys carry a mode.</strong> <C>cd_live_…</C> keys work on live data; <C>cd_test_…</C> keys on the
            organization&apos;s test data, kept entirely apart (a test key gets 404 on every live record and a live key on every
            test record). Create either kind on the API keys page or with{" "}
            <C>{`POST /api/v1/business/api-keys {"name", "permissions", "mode": "live"|"test"}`}</C> (live by default).
          </li>
          <li>
            <strong>Test cards</strong> on the hosted checkout: <C>4242 4242 4242 4242</C> pays, <C>4000 0000 0000 0002</C> is
            declined, and <C>4000 0000 0000 0341</C> pays once, then declines its automatic renewals. Bank accounts verify with{" "}
            <C>SM11AA</C>; payouts settle themselves; verification (KYB) is approved as soon as both documents are uploaded.
          </li>
          <li>
            <strong>Test clock.</strong>{" "}
            <C>
              POST /api/v1/business/coverages/{"{id}"}/simulate-end {"{endsInDays?}"}
            </C>{" "}
            with a test key (or <em>Simulate end of cover</em> on a customer&apos;s page in test mode) moves the current
            period&apos;s end to <C>endsInDays</C> days from now (default 0: now); the next worker pass sends what is due —
            renewal reminders, <C>coverage.expiring</C>, <C>coverage.expired</C>, or the renewal of an auto-renewing cover. A live
            key gets 409 <C>test_mode_only</C>.
          </li>
          <li>
            <strong>Webhooks</strong> are registered per mode and every delivery carries <C>{`"livemode": true|false`}</C>.
          </li>
          <li>
            A test key reads the profile, settings, team and invitations but cannot change them (403 <C>forbidden</C>).
          </li>
        </List>
      </Guide>

      <Guide id="errors">
        <p>
          Every error is an RFC 9457 problem (<C>application/problem+json</C>) with these fields:
        </p>
        <List>
          <li>
            <C>type</C> — <C>https://coverdesk.dev/errors/&lt;code&gt;</C>; <C>title</C> — a short summary; <C>status</C> — the
            HTTP status
          </li>
          <li>
            <C>code</C> — the stable machine-readable code to branch on (<C>validation_failed</C>, <C>not_found</C>,{" "}
            <C>insufficient_permissions</C>, <C>rate_limited</C>, <C>policy_inactive</C>…)
          </li>
          <li>
            <C>detail</C> — what went wrong, in words; <C>requestId</C> — also sent as the <C>X-Request-Id</C> header
          </li>
          <li>
            <C>errors[]</C> — on 422 <C>validation_failed</C>, one <C>{"{path, message}"}</C> per invalid field
          </li>
        </List>
        <Code label="A validation error">{`HTTP/1.1 422 Unprocessable Content
Content-Type: application/problem+json

{"type":"https://coverdesk.dev/errors/validation_failed","title":"Validation failed","status":422,
 "code":"validation_failed","detail":"…","requestId":"…",
 "errors":[{"path":"price","message":"…"}]}`}</Code>
        <H3>Idempotency</H3>
        <p>
          Send an <C>Idempotency-Key</C> header (up to 255 characters, e.g. a UUID) on any POST. The first answer — status and
          body, a 4xx refusal included — is kept for 24 hours per organization and key, and a retry with the same key replays it
          with the header <C>Idempotent-Replayed: true</C>. The same key with a different request answers 422{" "}
          <C>idempotency_key_reused</C>; a retry while the first request is still running answers 409{" "}
          <C>idempotency_in_progress</C> (retry a little later). A failure on our side (5xx) stores nothing, so the retry runs
          again.
        </p>
      </Guide>

      <Guide id="pagination">
        <p>
          Lists are cursor-paginated, newest first. Pass <C>limit</C> (1–100, default 20) and, for the next page, the{" "}
          <C>nextCursor</C> of the previous one as <C>cursor</C>. Each page is <C>{"{data: […], nextCursor}"}</C>;{" "}
          <C>nextCursor</C> is null on the last page. The cursor is opaque: pass it back as it is.
        </p>
        <Code label="Read two pages of policies">{`curl "${baseUrl}/business/policies?limit=20" -H "Authorization: Bearer cd_test_…"
# {"data":[…],"nextCursor":"MjAyNi0…"}
curl "${baseUrl}/business/policies?limit=20&cursor=MjAyNi0…" -H "Authorization: Bearer cd_test_…"`}</Code>
      </Guide>

      <Guide id="typed-client">
        <p>
          <C>src/client/</C> is a typed client for the REST API: openapi-fetch over types generated from the OpenAPI document (
          <a className="font-medium text-brand-700 underline" href="/api/v1/openapi.json">
            /api/v1/openapi.json
          </a>
          ) by openapi-typescript. Paths, parameters, bodies and answers are checked by the compiler; each call resolves to{" "}
          <C>{"{ data }"}</C> or to <C>{"{ error }"}</C> (the problem: <C>code</C>, <C>detail</C>, <C>errors</C>), never throwing
          on a status.
        </p>
        <Code label="The typed client in TypeScript">{`import { createCoverdeskClient } from "@/client"; // or copy src/client/ into your project (needs openapi-fetch)

const coverdesk = createCoverdeskClient({ apiKey: process.env.COVERDESK_API_KEY!, apiUrl: "http://localhost:3000" });

const { data: policy, error } = await coverdesk.POST("/business/policies", {
  body: { name: "Shop cover", type: "property", duration: "yearly", price: "150.00" },
  headers: { "Idempotency-Key": crypto.randomUUID() }, // a retry replays the first answer
});
if (error) throw new Error(\`\${error.code}: \${error.detail}\`); // e.g. validation_failed, with error.errors per field

const { data: page } = await coverdesk.GET("/business/policies", { params: { query: { limit: 20 } } });
const { data: one } = await coverdesk.GET("/business/policies/{id}", { params: { path: { id: policy.id } } });`}</Code>
        <p>
          Another project can generate its own types from a running app:{" "}
          <C>npx openapi-typescript http://localhost:3000/api/v1/openapi.json -o coverdesk.d.ts</C>.
        </p>
      </Guide>
    </>
  );
}
