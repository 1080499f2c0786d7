// Business settings: the REST API and the dashboard call the same services.
import { z } from "@/lib/messages";
import { Settings, UpdateSettingsInput, UploadLogoInput } from "@/lib/schemas/settings";
import { env } from "@/server/env";
import { getSettings, removeLogo, setLogo, updateSettings } from "@/server/settings/service";
import { operation } from "./operation";

const tag = "Settings";

export const settingsOperations = [
  // GET /api/v1/business/settings — notifications, API limit, reminder days, branding
  operation({
    name: "settings.get",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    output: Settings,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/business/settings",
      operationId: "getSettings",
      summary: "Get business settings",
      description:
        "Kept on the organization's account: the same for live and test keys. `reminders.daysBefore` are the days before a coverage's end on which its policyholder is emailed a renewal reminder; `branding` is what policyholders see on the portal and their certificates.",
      tag,
    },
    handler: ({ actor }) => getSettings(actor),
  }),
  // PUT /api/v1/business/settings — merge the given fields
  operation({
    name: "settings.update",
    auth: ["apiKey", "session"],
    permission: "write",
    kind: "mutation",
    input: UpdateSettingsInput,
    output: Settings,
    dashboard: true,
    rest: {
      method: "PUT",
      path: "/business/settings",
      operationId: "updateSettings",
      summary: "Update business settings",
      description:
        "Merges the given fields into the current settings; fields left out keep their values. New `reminders.daysBefore` apply at once to the coverages that have not ended (a reminder a coverage already had for its period is not sent again); `[]` turns reminders off. `branding.accentColor` is `#rrggbb`, or null for Coverdesk's own.",
      tag,
      body: UpdateSettingsInput,
    },
    handler: ({ actor, input }) => updateSettings(actor, input),
  }),
  // POST /api/v1/business/settings/logo — set the logo (multipart: file); replaces the one before.
  // The dashboard uploads it at POST /api/upload/business/settings/logo.
  operation({
    name: "settings.uploadLogo",
    auth: ["apiKey", "session"],
    permission: "write",
    kind: "mutation",
    output: Settings,
    rest: {
      method: "POST",
      path: "/business/settings/logo",
      operationId: "uploadLogo",
      summary: "Upload the logo",
      description:
        "multipart/form-data with a `file`: a PNG or JPEG image by its content (else 415) of at most 1 MiB (else 413) and, by its header, at most 4096 × 4096 pixels and 64 MiB decoded (else 422). What is kept is a copy fitted inside 512 × 512 pixels, in the same format and without metadata. It replaces the current logo, which is deleted. Answers the settings.",
      tag,
      multipart: { files: ["file"] },
      body: UploadLogoInput,
      upload: true,
    },
    handler: ({ actor, input }) => setLogo(actor, input),
  }),
  // DELETE /api/v1/business/settings/logo — 204, the logo deleted (none: nothing to do); the dashboard gets the settings
  operation({
    name: "settings.removeLogo",
    auth: ["apiKey", "session"],
    permission: "write",
    kind: "mutation",
    output: Settings,
    dashboard: true,
    rest: {
      method: "DELETE",
      path: "/business/settings/logo",
      operationId: "deleteLogo",
      summary: "Remove the logo",
      description: "Deletes the logo; the portal and certificates then show the business's name only.",
      tag,
      status: 204,
    },
    handler: ({ actor }) => removeLogo(actor),
  }),
  /** The policyholder portal of the organization in the current mode (the test twin's in test mode). */
  operation({
    name: "settings.portal",
    auth: ["session"],
    permission: "read",
    kind: "query",
    output: z.object({ organizationId: z.string(), url: z.string(), livemode: z.boolean() }),
    dashboard: true,
    handler: async ({ actor }) => ({
      organizationId: actor.organizationId,
      url: `${env.APP_URL}/portal/${actor.organizationId}`,
      livemode: actor.livemode !== false,
    }),
  }),
] as const;
