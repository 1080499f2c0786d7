import { z } from "@/lib/messages";
import { accountOf, capabilities, isLive } from "@/server/actor";
import { isPlatformAdmin } from "@/server/admin/service";
import {
  CreateOrganizationInput,
  Me,
  Organization,
  OrganizationList,
  UpdateOrganizationInput,
} from "@/lib/schemas/organizations";
import {
  createOrganization,
  currencyLock,
  getOrganization,
  listOrganizations,
  setDashboardMode,
  switchOrganization,
  updateOrganization,
} from "@/server/organizations/service";
import { authedProcedure, orgProcedure, router } from "../init";

export const organizationsRouter = router({
  list: authedProcedure.output(OrganizationList).query(({ ctx }) => listOrganizations(ctx.user.id, { limit: 100 })),
  // The live organization in both modes: its profile is shared.
  current: orgProcedure.output(Organization).query(({ ctx }) => getOrganization(ctx.user.id, accountOf(ctx.actor))),
  /** The user's role in the active organization and what it lets them do: the dashboard shows only that. */
  me: orgProcedure.output(Me).query(async ({ ctx }) => ({
    role: ctx.actor.role,
    can: capabilities(ctx.actor),
    platformAdmin: await isPlatformAdmin(ctx.user.id),
    livemode: isLive(ctx.actor),
  })),
  /** Test mode on or off for this user: the dashboard then shows the test twin's data. */
  setMode: authedProcedure
    .input(z.strictObject({ livemode: z.boolean() }))
    .output(z.object({ livemode: z.boolean() }))
    .mutation(async ({ ctx, input }) => ({ livemode: await setDashboardMode(ctx.user.id, input.livemode) })),
  /** Why the currency can no longer change (null while it can), for the profile form. */
  currencyLock: orgProcedure
    .output(z.object({ reason: z.string().nullable() }))
    .query(async ({ ctx }) => ({ reason: await currencyLock(ctx.actor) })),
  create: authedProcedure
    .input(CreateOrganizationInput)
    .output(Organization)
    .mutation(({ ctx, input }) => createOrganization(ctx.user.id, input)),
  update: orgProcedure
    .input(UpdateOrganizationInput)
    .output(Organization)
    .mutation(({ ctx, input }) => updateOrganization(ctx.actor, input)),
  switch: authedProcedure
    .input(z.object({ organizationId: z.string().min(1) }))
    .output(Organization)
    .mutation(({ ctx, input }) => switchOrganization(ctx.user.id, input.organizationId)),
});
