import { Settings, UpdateSettingsInput, UploadLogoInput } from "@/lib/schemas/settings";
import { getSettings, removeLogo, setLogo, updateSettings } from "@/server/settings/service";
import { endpoint } from "../endpoint";

const tag = "Settings";

export const settingsEndpoints = [
  // GET /api/v1/business/settings — notifications, API limit, reminder days, branding
  endpoint({
    method: "GET",
    path: "/business/settings",
    operationId: "getSettings",
    summary: "Get business settings",
    description:
      "Kept on the organization's account: the same for live and test keys. `reminders.daysBefore` are the days before a coverage's end on which its policyholder is emailed a renewal reminder; `branding` is what policyholders see on the portal and their certificates.",
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
    description:
      "Merges the given fields into the current settings; fields left out keep their values. New `reminders.daysBefore` apply at once to the coverages that have not ended (a reminder a coverage already had for its period is not sent again); `[]` turns reminders off. `branding.accentColor` is `#rrggbb`, or null for Coverdesk's own.",
    tag,
    permission: "write",
    body: UpdateSettingsInput,
    response: Settings,
    handler: ({ actor, body }) => updateSettings(actor, body),
  }),
  // POST /api/v1/business/settings/logo — set the logo (multipart: file); replaces the one before
  endpoint({
    method: "POST",
    path: "/business/settings/logo",
    operationId: "uploadLogo",
    summary: "Upload the logo",
    description:
      "multipart/form-data with a `file`: a PNG or JPEG image by its content (else 415) of at most 1 MiB (else 413) and, by its header, at most 4096 × 4096 pixels and 64 MiB decoded (else 422). What is kept is a copy fitted inside 512 × 512 pixels, in the same format and without metadata. It replaces the current logo, which is deleted. Answers the settings.",
    tag,
    permission: "write",
    multipart: { files: ["file"] },
    body: UploadLogoInput,
    response: Settings,
    handler: ({ actor, body }) => setLogo(actor, body),
  }),
  // DELETE /api/v1/business/settings/logo — 204, the logo deleted (none: nothing to do)
  endpoint({
    method: "DELETE",
    path: "/business/settings/logo",
    operationId: "deleteLogo",
    summary: "Remove the logo",
    description: "Deletes the logo; the portal and certificates then show the business's name only.",
    tag,
    permission: "write",
    status: 204,
    handler: async ({ actor }) => {
      await removeLogo(actor);
    },
  }),
];
