// The settings form's schema is the API's UpdateSettingsInput (the parts this
// form edits): same limits and sentences ("Enter a whole number from 1 to 100000").
// Loaded with zod when the form first validates (lazyResolver); the form keeps its
// own values (`raw`), which are already the API's input.
import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "@/lib/messages";
import { UpdateSettingsInput } from "@/lib/schemas/settings";
import type { SettingsFormValues } from "./settings-form.values";

const Edits = UpdateSettingsInput.pick({ notifications: true, api: true });

// The fields are the input as they are (the annotation checks they fit it).
export const FormSchema = z
  .custom<SettingsFormValues>()
  .transform((values): z.input<typeof Edits> => values)
  .pipe(Edits);

export const resolver = zodResolver(FormSchema, undefined, { raw: true });
