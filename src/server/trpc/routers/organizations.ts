import { z } from "zod";
import { CreateOrganizationInput, UpdateOrganizationInput } from "@/server/organizations/schemas";
import {
  createOrganization,
  getOrganization,
  listOrganizations,
  switchOrganization,
  updateOrganization,
} from "@/server/organizations/service";
import { authedProcedure, orgProcedure, router } from "../init";

export const organizationsRouter = router({
  list: authedProcedure.query(({ ctx }) => listOrganizations(ctx.user.id, { limit: 100 })),
  current: orgProcedure.query(({ ctx }) => getOrganization(ctx.user.id, ctx.actor.organizationId)),
  create: authedProcedure.input(CreateOrganizationInput).mutation(({ ctx, input }) => createOrganization(ctx.user.id, input)),
  update: orgProcedure.input(UpdateOrganizationInput).mutation(({ ctx, input }) => updateOrganization(ctx.actor, input)),
  switch: authedProcedure
    .input(z.object({ organizationId: z.string().min(1) }))
    .mutation(({ ctx, input }) => switchOrganization(ctx.user.id, input.organizationId)),
});
