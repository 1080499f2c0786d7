import { CreateApiKeyInput, UpdateApiKeyInput } from "@/server/api-keys/schemas";
import { createApiKey, listApiKeys, regenerateApiKey, revokeApiKey, updateApiKey } from "@/server/api-keys/service";
import { IdParam } from "@/server/ids";
import { PageQuery } from "@/server/pagination";
import { orgProcedure, router } from "../init";

export const apiKeysRouter = router({
  list: orgProcedure.input(PageQuery).query(({ ctx, input }) => listApiKeys(ctx.actor, input)),
  create: orgProcedure.input(CreateApiKeyInput).mutation(({ ctx, input }) => createApiKey(ctx.actor, input)),
  update: orgProcedure
    .input(IdParam.extend({ data: UpdateApiKeyInput }))
    .mutation(({ ctx, input }) => updateApiKey(ctx.actor, input.id, input.data)),
  revoke: orgProcedure.input(IdParam).mutation(({ ctx, input }) => revokeApiKey(ctx.actor, input.id)),
  regenerate: orgProcedure.input(IdParam).mutation(({ ctx, input }) => regenerateApiKey(ctx.actor, input.id)),
});
