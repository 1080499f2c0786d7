// API keys: the REST API and the dashboard call the same services.
import { ApiKey, ApiKeyList, ApiKeyWithSecret, CreateApiKeyInput, UpdateApiKeyInput } from "@/lib/schemas/api-keys";
import { IdParam } from "@/lib/schemas/ids";
import { createApiKey, listApiKeys, regenerateApiKey, revokeApiKey, updateApiKey } from "@/server/api-keys/service";
import { PageQuery } from "@/server/pagination";
import { operation } from "./operation";

const tag = "API keys";

export const apiKeyOperations = [
  // GET /api/v1/business/api-keys — list the organization's keys
  operation({
    name: "apiKeys.list",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    input: PageQuery,
    output: ApiKeyList,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/business/api-keys",
      operationId: "listApiKeys",
      summary: "List API keys",
      tag,
      query: PageQuery,
    },
    handler: ({ actor, input }) => listApiKeys(actor, input),
  }),
  // POST /api/v1/business/api-keys — create a key; its secret is in this response only
  operation({
    name: "apiKeys.create",
    auth: ["apiKey", "session"],
    permission: "write",
    recentAuth: true,
    kind: "mutation",
    input: CreateApiKeyInput,
    output: ApiKeyWithSecret,
    dashboard: true,
    rest: {
      method: "POST",
      path: "/business/api-keys",
      operationId: "createApiKey",
      summary: "Create an API key",
      tag,
      body: CreateApiKeyInput,
      status: 201,
    },
    handler: ({ actor, input }) => createApiKey(actor, input),
  }),
  // PUT /api/v1/business/api-keys/{id} — rename or change permissions
  operation({
    name: "apiKeys.update",
    auth: ["apiKey", "session"],
    permission: "write",
    kind: "mutation",
    input: IdParam.extend({ data: UpdateApiKeyInput }),
    output: ApiKey,
    dashboard: true,
    rest: {
      method: "PUT",
      path: "/business/api-keys/{id}",
      operationId: "updateApiKey",
      summary: "Update an API key's name or permissions",
      tag,
      params: IdParam,
      body: UpdateApiKeyInput,
      errors: ["invalid_state"],
      input: ({ params, body }) => ({ id: params.id, data: body }),
    },
    handler: ({ actor, input }) => updateApiKey(actor, input.id, input.data),
  }),
  // DELETE /api/v1/business/api-keys/{id} — revoke (the record stays, status `revoked`)
  operation({
    name: "apiKeys.revoke",
    auth: ["apiKey", "session"],
    permission: "write",
    kind: "mutation",
    input: IdParam,
    output: ApiKey,
    dashboard: true,
    rest: {
      method: "DELETE",
      path: "/business/api-keys/{id}",
      operationId: "revokeApiKey",
      summary: "Revoke an API key",
      description: "The key stops working at once. The record stays listed with status `revoked`.",
      tag,
      params: IdParam,
    },
    handler: ({ actor, input }) => revokeApiKey(actor, input.id),
  }),
  // POST /api/v1/business/api-keys/{id}/regenerate — new secret, same record
  operation({
    name: "apiKeys.regenerate",
    auth: ["apiKey", "session"],
    permission: "write",
    recentAuth: true,
    kind: "mutation",
    input: IdParam,
    output: ApiKeyWithSecret,
    dashboard: true,
    rest: {
      method: "POST",
      path: "/business/api-keys/{id}/regenerate",
      operationId: "regenerateApiKey",
      summary: "Regenerate an API key",
      description: "Issues a new secret for the same record (id, name, permissions). The old secret is rejected at once.",
      tag,
      params: IdParam,
      errors: ["invalid_state"],
    },
    handler: ({ actor, input }) => regenerateApiKey(actor, input.id),
  }),
] as const;
