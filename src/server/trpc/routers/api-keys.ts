import { ApiKey, ApiKeyList, ApiKeyWithSecret, CreateApiKeyInput, UpdateApiKeyInput } from "@/lib/schemas/api-keys";
import { createApiKey, listApiKeys, regenerateApiKey, revokeApiKey, updateApiKey } from "@/server/api-keys/service";
import { IdParam } from "@/lib/schemas/ids";
import { PageQuery } from "@/server/pagination";
import { orgProcedure, router } from "../init";

export const apiKeysRouter = router({
  list: orgProcedure
    .input(PageQuery)
    .output(ApiKeyList)
    .query(({ ctx, input }) => listApiKeys(ctx.actor, input)),
  create: orgProcedure
    .input(CreateApiKeyInput)
    .output(ApiKeyWithSecret)
    .mutation(({ ctx, input }) => createApiKey(ctx.actor, input)),
  update: orgProcedure
    .input(IdParam.extend({ data: UpdateApiKeyInput }))
    .output(ApiKey)
    .mutation(({ ctx, input }) => updateApiKey(ctx.actor, input.id, input.data)),
  revoke: orgProcedure
    .input(IdParam)
    .output(ApiKey)
    .mutation(({ ctx, input }) => revokeApiKey(ctx.actor, input.id)),
  regenerate: orgProcedure
    .input(IdParam)
    .output(ApiKeyWithSecret)
    .mutation(({ ctx, input }) => regenerateApiKey(ctx.actor, input.id)),
});
