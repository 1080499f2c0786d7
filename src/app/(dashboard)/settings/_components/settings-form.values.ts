// The settings form's fields: the very shape of the API's input (UpdateSettingsInput's
// notifications and api), so the form sends its values as they are and an issue's
// path names the field it belongs to. Without zod: the form imports it with the page.
import type { Settings } from "@/lib/schemas/settings";

export interface SettingsFormValues {
  notifications: { email: boolean; sms: boolean; digest: boolean };
  /** The number input's value (`valueAsNumber`: NaN when empty, which the API's schema refuses). */
  api: { rateLimit: number };
}

/** The fields as the server holds them. */
export const settingsFormValues = (settings: Pick<Settings, "notifications" | "api">): SettingsFormValues => ({
  notifications: { email: settings.notifications.email, sms: settings.notifications.sms, digest: settings.notifications.digest },
  api: { rateLimit: settings.api.rateLimit },
});
