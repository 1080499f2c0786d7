import { ApiKey, ApiKeyList, ApiKeyWithSecret, CreateApiKeyInput, UpdateApiKeyInput } from "@/lib/schemas/api-keys";
import { createApiKey, listApiKeys, regenerateApiKey, revokeApiKey, updateApiKey } from "@/server/api-keys/service";
import { PageQuery } from "@/server/pagination";
import { endpoint, IdParam } from "../endpoint";

const tag = "API keys";

export const apiKeyEndpoints = [
  // GET /api/v1/business/api-keys — list the organization's keys
  endpoint({
    method: "GET",
    path: "/business/api-keys",
    operationId: "listApiKeys",
    summary: "List API keys",
    tag,
    permission: "read",
    query: PageQuery,
    response: ApiKeyList,
    handler: ({ actor, query }) => listApiKeys(actor, query),
  }),
  // POST /api/v1/business/api-keys — create a key; its secret is in this response only
  endpoint({
    method: "POST",
    path: "/business/api-keys",
    operationId: "createApiKey",
    summary: "Create an API key",
    tag,
    permission: "write",
    body: CreateApiKeyInput,
    response: ApiKeyWithSecret,
    status: 201,
    handler: ({ actor, body }) => createApiKey(actor, body),
  }),
  // PUT /api/v1/business/api-keys/{id} — rename or change permissions
  endpoint({
    method: "PUT",
    path: "/business/api-keys/{id}",
    operationId: "updateApiKey",
    summary: "Update an API key's name or permissions",
    tag,
    permission: "write",
    params: IdParam,
    body: UpdateApiKeyInput,
    response: ApiKey,
    errors: ["invalid_state"],
    handler: ({ actor, params, body }) => updateApiKey(actor, params.id, body),
  }),
  // DELETE /api/v1/business/api-keys/{id} — revoke (the record stays, status `revoked`)
  endpoint({
    method: "DELETE",
    path: "/business/api-keys/{id}",
    operationId: "revokeApiKey",
    summary: "Revoke an API key",
    description: "The key stops working at once. The record stays listed with status `revoked`.",
    tag,
    permission: "write",
    params: IdParam,
    response: ApiKey,
    handler: ({ actor, params }) => revokeApiKey(actor, params.id),
  }),
  // POST /api/v1/business/api-keys/{id}/regenerate — new secret, same record
  endpoint({
    method: "POST",
    path: "/business/api-keys/{id}/regenerate",
    operationId: "regenerateApiKey",
    summary: "Regenerate an API key",
    description: "Issues a new secret for the same record (id, name, permissions). The old secret is rejected at once.",
    tag,
    permission: "write",
    params: IdParam,
    response: ApiKeyWithSecret,
    errors: ["invalid_state"],
    handler: ({ actor, params }) => regenerateApiKey(actor, params.id),
  }),
];
