// The OpenAPI 3.1 document, built from the same operation table and zod
// schemas the pipeline uses, so the reference cannot drift from the API.
import { z } from "@/lib/messages";
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
} from "zod-openapi";
import { env } from "@/server/env";
import type { ErrorCode } from "@/server/errors";
import { operations } from "@/server/operations";

const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    code: z.string().describe("Stable machine-readable error code"),
    detail: z.string(),
    requestId: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    attemptsRemaining: z
      .number()
      .int()
      .optional()
      .describe("Wrong bank account verification code: tries left (0: the account can no longer be verified)"),
  })
  .meta({ id: "Problem", description: "RFC 9457 problem details" });

const problem = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: Problem } },
});

const STATUS_OF: Partial<Record<ErrorCode, string>> = { invalid_state: "409", conflict: "409" };

let cached: ReturnType<typeof createDocument> | undefined;

export function openApiDocument() {
  if (cached) return cached;
  const paths: ZodOpenApiPathsObject = {};
  for (const entry of operations) {
    if (!entry.rest) continue;
    const { rest } = entry;
    const ep = { ...rest, permission: entry.permission, response: rest.status === 204 ? undefined : (rest.response ?? entry.output) };
    const responses: Record<string, ZodOpenApiResponseObject> = {
      [String(ep.status ?? 200)]: ep.file
        ? {
            description: ep.file.description,
            content: Object.fromEntries(ep.file.contentTypes.map((t) => [t, { schema: { type: "string", format: "binary" } }])),
          }
        : ep.status === 204 || !ep.response
          ? { description: "No content" }
          : { description: "Success", content: { "application/json": { schema: ep.response } } },
      "401": problem("Missing, unknown or revoked API key"),
      "404": problem("Not found (also another organization's record)"),
      "429": problem("Over the organization's rate limit; see Retry-After"),
    };
    if (ep.permission === "write") responses["403"] = problem("The key lacks `write`, or the user's role is too low");
    if (ep.body || ep.params) responses["422"] = problem("Invalid input; `errors` lists each field");
    if (ep.query && ep.queryError === "validation_failed")
      responses["422"] ??= problem("Invalid query; `errors` lists each parameter");
    else if (ep.query) responses["400"] = problem("Invalid query string");
    if (ep.body)
      responses["400"] ??= problem(
        ep.multipart?.form ? "Malformed JSON or multipart body" : ep.multipart ? "Malformed multipart body" : "Malformed JSON",
      );
    if (ep.multipart) {
      responses["413"] = problem("A file over MAX_UPLOAD_BYTES (10 MiB by default)");
      responses["415"] = problem(
        ep.multipart.form
          ? "Neither JSON nor multipart/form-data, or a file that is not a PDF, PNG or JPEG by its content"
          : "Not multipart/form-data, or a file that is not a PDF, PNG or JPEG by its content",
      );
    }
    for (const code of ep.errors ?? []) {
      const status = STATUS_OF[code] ?? "409";
      responses[status] ??= problem(`The current state forbids this (${code})`);
    }
    const op: ZodOpenApiOperationObject = {
      operationId: ep.operationId,
      summary: ep.summary,
      description: ep.description,
      tags: [ep.tag],
      requestParams: {
        ...(ep.params ? { path: ep.params } : {}),
        ...(ep.query ? { query: ep.query as z.ZodObject } : {}),
      },
      requestBody: ep.multipart?.form
        ? {
            required: true,
            content: {
              "application/json": { schema: ep.body! },
              "multipart/form-data": { schema: ep.multipart.form },
            },
          }
        : ep.body
          ? { required: true, content: { [ep.multipart ? "multipart/form-data" : "application/json"]: { schema: ep.body } } }
          : undefined,
      responses,
    };
    if (ep.method === "POST") {
      op.requestParams = {
        ...op.requestParams,
        header: z.object({
          "Idempotency-Key": z.string().max(255).optional().describe("Replays the first response for 24 h"),
        }),
      };
    }
    paths[ep.path] = { ...paths[ep.path], [ep.method.toLowerCase()]: op };
  }
  cached = createDocument({
    openapi: "3.1.0",
    info: {
      title: "Coverdesk API",
      version: "1.0.0",
      description:
        "Business insurance: policies, payments, claims, payouts and webhooks. Authenticate with `Authorization: Bearer <API key>`; create keys in the dashboard under API keys. `cd_test_` keys work on the organization's test data with sandbox money (test card 4242 4242 4242 4242), kept apart from live data (`cd_live_` keys); every webhook event carries `livemode`. Errors are RFC 9457 problem details.",
    },
    servers: [{ url: `${env.APP_URL}/api/v1` }],
    security: [{ bearerAuth: [] }],
    components: { securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "cd_live_… API key" } } },
    paths,
  });
  return cached;
}
