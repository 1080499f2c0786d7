// The typed client for Coverdesk's REST API: openapi-fetch over the types
// generated from GET /api/v1/openapi.json (schema.d.ts, `npm run client:generate`).
// Paths, path and query parameters, bodies and answers are checked by the
// compiler; each call resolves to `{ data }` on success or `{ error }` with the
// RFC 9457 problem, never throws on an HTTP status.
//
//   const coverdesk = createCoverdeskClient({ apiKey: process.env.COVERDESK_API_KEY! });
//   const { data, error } = await coverdesk.GET("/business/policies", { params: { query: { limit: 20 } } });
//   await coverdesk.POST("/claims", { body: { … }, headers: { "Idempotency-Key": crypto.randomUUID() } });
//
// It has no dependency on the rest of this repository: copy src/client/ into
// another project (with openapi-fetch installed) and it works there too.
import createClient, { type Client, type ClientOptions } from "openapi-fetch";
import type { components, operations, paths } from "./schema";

export type { components, operations, paths };
/** The API's named schemas: `Schemas["Policy"]`, `Schemas["Problem"]`, … */
export type Schemas = components["schemas"];
/** The problem details every refusal carries (`code`, `detail`, `errors`, `requestId`). */
export type Problem = components["schemas"]["Problem"];
export type CoverdeskClient = Client<paths>;

export interface CoverdeskClientOptions {
  /** A secret key (`sk_live_…` or `sk_test_…`). */
  apiKey: string;
  /** The app's origin, e.g. https://coverdesk.example.com (default http://localhost:3000). */
  apiUrl?: string;
  /** Another fetch (a test's, an instrumented one); the global one by default. */
  fetch?: ClientOptions["fetch"];
}

export function createCoverdeskClient({
  apiKey,
  apiUrl = "http://localhost:3000",
  fetch,
}: CoverdeskClientOptions): CoverdeskClient {
  return createClient<paths>({
    baseUrl: `${apiUrl.replace(/\/+$/, "")}/api/v1`,
    headers: { Authorization: `Bearer ${apiKey}` },
    ...(fetch ? { fetch } : {}),
  });
}
