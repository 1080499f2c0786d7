import { Settings, UpdateSettingsInput } from "@/server/settings/schemas";
import { getSettings, updateSettings } from "@/server/settings/service";
import { endpoint } from "../endpoint";

const tag = "Settings";

export const settingsEndpoints = [
  // GET /api/v1/business/settings — notification and API settings
  endpoint({
    method: "GET",
    path: "/business/settings",
    operationId: "getSettings",
    summary: "Get business settings",
    tag,
    permission: "read",
    response: Settings,
    handler: ({ actor }) => getSettings(actor),
  }),
  // PUT /api/v1/business/settings — merge the given fields
  endpoint({
    method: "PUT",
    path: "/business/settings",
    operationId: "updateSettings",
    summary: "Update business settings",
    description: "Merges the given fields into the current settings; fields left out keep their values.",
    tag,
    permission: "write",
    body: UpdateSettingsInput,
    response: Settings,
    handler: ({ actor, body }) => updateSettings(actor, body),
  }),
];
