import { z } from "@/lib/messages";
import { ApiKey } from "@/lib/schemas/api-keys";
import { IdParam } from "@/lib/schemas/ids";
import { PageQuery } from "@/server/pagination";
import { acceptInvitation, cancelInvitation, inviteMember, listInvitations, resendInvitation } from "@/server/team/invitations";
import { activeApiKeysOfMember, listMembers, removeMember, updateMemberRole } from "@/server/team/members";
import {
  AcceptedInvitation,
  AssignableRole,
  Invitation,
  InvitationList,
  InviteMemberInput,
  ListInvitationsQuery,
  Member,
  MemberList,
  MemberRemoval,
} from "@/lib/schemas/team";
import { authedProcedure, orgProcedure, router } from "../init";

export const teamRouter = router({
  members: orgProcedure
    .input(PageQuery)
    .output(MemberList)
    .query(({ ctx, input }) => listMembers(ctx.actor, input)),
  updateRole: orgProcedure
    .input(IdParam.extend({ role: AssignableRole }))
    .output(Member)
    .mutation(({ ctx, input }) => updateMemberRole(ctx.actor, input.id, input.role)),
  /** The member's active API keys: what removing them revokes (the removal dialog names them). */
  activeApiKeys: orgProcedure
    .input(IdParam)
    .output(z.array(ApiKey))
    .query(({ ctx, input }) => activeApiKeysOfMember(ctx.actor, input.id)),
  /** Answers the API keys the removal revoked. */
  remove: orgProcedure
    .input(IdParam)
    .output(MemberRemoval)
    .mutation(({ ctx, input }) => removeMember(ctx.actor, input.id)),
  invitations: orgProcedure
    .input(ListInvitationsQuery)
    .output(InvitationList)
    .query(({ ctx, input }) => listInvitations(ctx.actor, input)),
  invite: orgProcedure
    .input(InviteMemberInput)
    .output(Invitation)
    .mutation(({ ctx, input }) => inviteMember(ctx.actor, input)),
  resend: orgProcedure
    .input(IdParam)
    .output(Invitation)
    .mutation(({ ctx, input }) => resendInvitation(ctx.actor, input.id)),
  cancel: orgProcedure
    .input(IdParam)
    .output(Invitation)
    .mutation(({ ctx, input }) => cancelInvitation(ctx.actor, input.id)),
  /** The invitee joins; works for a user without any organization yet. */
  accept: authedProcedure
    .input(z.object({ token: z.string().min(1).max(200) }))
    .output(AcceptedInvitation)
    .mutation(({ ctx, input }) => acceptInvitation({ id: ctx.user.id, email: ctx.user.email }, input.token)),
});
