import { z } from "@/lib/messages";
import { env } from "@/server/env";
import { Settings, UpdateSettingsInput } from "@/lib/schemas/settings";
import { getSettings, removeLogo, updateSettings } from "@/server/settings/service";
import { orgProcedure, router } from "../init";

export const settingsRouter = router({
  get: orgProcedure.output(Settings).query(({ ctx }) => getSettings(ctx.actor)),
  update: orgProcedure
    .input(UpdateSettingsInput)
    .output(Settings)
    .mutation(({ ctx, input }) => updateSettings(ctx.actor, input)),
  /** The logo is uploaded through POST /api/upload/business/settings/logo; removed here. */
  removeLogo: orgProcedure.output(Settings).mutation(({ ctx }) => removeLogo(ctx.actor)),
  /** The policyholder portal of the organization in the current mode (the test twin's in test mode). */
  portal: orgProcedure
    .output(z.object({ organizationId: z.string(), url: z.string(), livemode: z.boolean() }))
    .query(({ ctx }) => ({
      organizationId: ctx.actor.organizationId,
      url: `${env.APP_URL}/portal/${ctx.actor.organizationId}`,
      livemode: ctx.actor.livemode !== false,
    })),
});
