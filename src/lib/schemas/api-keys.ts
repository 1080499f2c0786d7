import { M, z } from "@/lib/messages";
import { pageOf } from "@/lib/schemas/pagination";

export const Permission = z.enum(["read", "write"]);

const Permissions = z
  .array(Permission)
  .min(1, M.requiredWhat("at least one permission"))
  .max(2)
  .refine((p) => new Set(p).size === p.length, M.noRepeats("permission"))
  .describe("`read` allows GET; `write` allows every method");

const Name = z.string().trim().min(1).max(100);

const Mode = z
  .enum(["live", "test"])
  .describe("`live` (cd_live_…): real data and money; `test` (cd_test_…): the organization's test data, sandbox money");

export const CreateApiKeyInput = z
  .strictObject({
    name: Name.describe("A label for the key"),
    permissions: Permissions,
    mode: Mode.default("live"),
  })
  .meta({ id: "CreateApiKeyInput" });
// The input shape: `mode` may be left out (live) by in-process callers; the REST and tRPC parsers fill it.
export type CreateApiKeyInput = z.input<typeof CreateApiKeyInput>;

export const UpdateApiKeyInput = z
  .strictObject({ name: Name.optional(), permissions: Permissions.optional() })
  .refine((v) => v.name !== undefined || v.permissions !== undefined, M.atLeastOneField)
  .meta({ id: "UpdateApiKeyInput" });
export type UpdateApiKeyInput = z.infer<typeof UpdateApiKeyInput>;

export const ApiKey = z
  .object({
    id: z.string(),
    name: z.string(),
    mode: z.enum(["live", "test"]),
    permissions: z.array(Permission),
    prefix: z.string().describe("The first 12 characters of the key, to recognise it"),
    status: z.enum(["active", "revoked"]),
    createdAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: "ApiKey" });
export type ApiKey = z.infer<typeof ApiKey>;

export const ApiKeyList = pageOf(ApiKey, "ApiKeyList");

export const ApiKeyWithSecret = ApiKey.extend({
  key: z.string().describe("The full key. Shown only in this response: store it now."),
}).meta({ id: "ApiKeyWithSecret" });
export type ApiKeyWithSecret = z.infer<typeof ApiKeyWithSecret>;
