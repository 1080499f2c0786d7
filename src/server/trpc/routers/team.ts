import { z } from "zod";
import { IdParam } from "@/server/ids";
import { PageQuery } from "@/server/pagination";
import { acceptInvitation, cancelInvitation, inviteMember, listInvitations, resendInvitation } from "@/server/team/invitations";
import { listMembers, removeMember, updateMemberRole } from "@/server/team/members";
import { AssignableRole, InviteMemberInput, ListInvitationsQuery } from "@/server/team/schemas";
import { authedProcedure, orgProcedure, router } from "../init";

export const teamRouter = router({
  members: orgProcedure.input(PageQuery).query(({ ctx, input }) => listMembers(ctx.actor, input)),
  updateRole: orgProcedure
    .input(IdParam.extend({ role: AssignableRole }))
    .mutation(({ ctx, input }) => updateMemberRole(ctx.actor, input.id, input.role)),
  remove: orgProcedure.input(IdParam).mutation(({ ctx, input }) => removeMember(ctx.actor, input.id)),
  invitations: orgProcedure.input(ListInvitationsQuery).query(({ ctx, input }) => listInvitations(ctx.actor, input)),
  invite: orgProcedure.input(InviteMemberInput).mutation(({ ctx, input }) => inviteMember(ctx.actor, input)),
  resend: orgProcedure.input(IdParam).mutation(({ ctx, input }) => resendInvitation(ctx.actor, input.id)),
  cancel: orgProcedure.input(IdParam).mutation(({ ctx, input }) => cancelInvitation(ctx.actor, input.id)),
  /** The invitee joins; works for a user without any organization yet. */
  accept: authedProcedure
    .input(z.object({ token: z.string().min(1).max(200) }))
    .mutation(({ ctx, input }) => acceptInvitation({ id: ctx.user.id, email: ctx.user.email }, input.token)),
});
