// The settings form validates with the API's UpdateSettingsInput and sends its values as they are.
import { describe, expect, it } from "vitest";
import { M } from "@/lib/messages";
import { UpdateSettingsInput } from "@/lib/schemas/settings";
import { FormSchema, resolver } from "./settings-form.schema";
import { settingsFormValues, type SettingsFormValues } from "./settings-form.values";

const held = {
  notifications: { email: true, sms: false, digest: false },
  api: { rateLimit: 600 },
  reminders: { daysBefore: [14, 3] },
  branding: { accentColor: null, logo: null },
};

const withRate = (rateLimit: number): SettingsFormValues => ({ ...settingsFormValues(held), api: { rateLimit } });
const messages = (values: SettingsFormValues) =>
  (FormSchema.safeParse(values).error?.issues ?? []).map((i) => ({ path: i.path.join("."), message: i.message }));

describe("settings form", () => {
  it("starts from what the server holds, in the API input's shape", () => {
    const values = settingsFormValues(held);
    expect(values).toEqual({ notifications: { email: true, sms: false, digest: false }, api: { rateLimit: 600 } });
    expect(UpdateSettingsInput.parse(values)).toEqual(values);
  });

  it("refuses a rate limit the API refuses, with the API's sentence (an empty number field is NaN)", () => {
    const between = M.between(1, 100_000);
    expect(between).toBe("Enter a whole number from 1 to 100000");
    for (const bad of [0, -5, 100_001, 1.5, Number.NaN]) {
      expect(messages(withRate(bad))).toEqual([{ path: "api.rateLimit", message: between }]);
      expect(UpdateSettingsInput.safeParse(withRate(bad)).success).toBe(false);
    }
    for (const good of [1, 1200, 100_000]) expect(messages(withRate(good))).toEqual([]);
  });

  it("gives react-hook-form the message under api.rateLimit, and the values unchanged on success", async () => {
    const options = { fields: {}, shouldUseNativeValidation: false } as const;
    const bad = await resolver(withRate(0), undefined, options);
    expect(bad.errors.api?.rateLimit?.message).toBe("Enter a whole number from 1 to 100000");
    const good = await resolver(withRate(1200), undefined, options);
    expect(good.errors).toEqual({});
    expect(good.values).toEqual(withRate(1200));
  });
});
