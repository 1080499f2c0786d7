import { Settings, UpdateSettingsInput } from "@/server/settings/schemas";
import { getSettings, updateSettings } from "@/server/settings/service";
import { orgProcedure, router } from "../init";

export const settingsRouter = router({
  get: orgProcedure.output(Settings).query(({ ctx }) => getSettings(ctx.actor)),
  update: orgProcedure
    .input(UpdateSettingsInput)
    .output(Settings)
    .mutation(({ ctx, input }) => updateSettings(ctx.actor, input)),
});
