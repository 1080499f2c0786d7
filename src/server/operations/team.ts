// The team. The REST entries live under /organizations/{accountID}: the key's
// own organization only (another id → 404), as the key itself (its creator's
// role there, its mode: a test key reads the team but never changes it, 403).
// See rest/user-scope.ts. The dashboard's entries act as the signed-in member.
import { z } from "@/lib/messages";
import { ApiKey } from "@/lib/schemas/api-keys";
import { IdParam } from "@/lib/schemas/ids";
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
  UpdateMemberInput,
} from "@/lib/schemas/team";
import { PageQuery } from "@/server/pagination";
import { creatorActor } from "@/server/rest/user-scope";
import { acceptInvitation, cancelInvitation, inviteMember, listInvitations, resendInvitation } from "@/server/team/invitations";
import { activeApiKeysOfMember, listMembers, removeMember, updateMemberRole } from "@/server/team/members";
import { operation } from "./operation";
import { AccountParam } from "./organizations";

const tag = "Team";
const MemberParams = AccountParam.extend({ memberId: z.string().min(1).max(100) });
const InvitationParams = AccountParam.extend({ invitationId: z.string().min(1).max(100) });

export const teamOperations = [
  // POST /api/v1/organizations/{accountID}/invite — email an invitation
  operation({
    name: "team.inviteMember",
    auth: ["apiKey"],
    permission: "write",
    kind: "mutation",
    output: Invitation,
    rest: {
      method: "POST",
      path: "/organizations/{accountID}/invite",
      operationId: "inviteMember",
      summary: "Invite a team member",
      description: "Emails a link valid for 7 days. An existing member, or an email with a pending invitation, answers 409.",
      tag,
      params: AccountParam,
      body: InviteMemberInput,
      status: 201,
      errors: ["already_member", "invitation_pending", "invitation_limit_reached"],
    },
    handler: async ({ key, input: { accountID, ...body } }) => inviteMember(creatorActor(key, accountID), body),
  }),
  // GET /api/v1/organizations/{accountID}/members
  operation({
    name: "team.listMembers",
    auth: ["apiKey"],
    permission: "read",
    kind: "query",
    output: MemberList,
    rest: {
      method: "GET",
      path: "/organizations/{accountID}/members",
      operationId: "listMembers",
      summary: "List team members",
      tag,
      params: AccountParam,
      query: PageQuery,
    },
    handler: async ({ key, input: { accountID, ...query } }) => listMembers(creatorActor(key, accountID), query),
  }),
  // PUT /api/v1/organizations/{accountID}/members/{memberId} — ADMIN ↔ MEMBER
  operation({
    name: "team.updateMemberRole",
    auth: ["apiKey"],
    permission: "write",
    kind: "mutation",
    output: Member,
    rest: {
      method: "PUT",
      path: "/organizations/{accountID}/members/{memberId}",
      operationId: "updateMemberRole",
      summary: "Change a member's role",
      description: "ADMIN or MEMBER. The OWNER's role cannot be changed (409).",
      tag,
      params: MemberParams,
      body: UpdateMemberInput,
      errors: ["invalid_state"],
    },
    handler: async ({ key, input }) => updateMemberRole(creatorActor(key, input.accountID), input.memberId, input.role),
  }),
  // DELETE /api/v1/organizations/{accountID}/members/{memberId} — remove (204)
  operation({
    name: "team.removeMember",
    auth: ["apiKey"],
    permission: "write",
    kind: "mutation",
    rest: {
      method: "DELETE",
      path: "/organizations/{accountID}/members/{memberId}",
      operationId: "removeMember",
      summary: "Remove a member",
      description:
        "The member loses access at once, and every active API key they created in this organization is revoked in the same step (those keys then answer 401 `revoked_api_key`; `GET /business/api-keys` lists them as revoked). The OWNER cannot be removed (409).",
      tag,
      params: MemberParams,
      status: 204,
      errors: ["invalid_state"],
    },
    // 204 per the contract: the revoked keys show as revoked in GET /business/api-keys.
    handler: async ({ key, input }) => {
      await removeMember(creatorActor(key, input.accountID), input.memberId);
    },
  }),
  // GET /api/v1/organizations/{accountID}/invitations — with ?status=
  operation({
    name: "team.listInvitations",
    auth: ["apiKey"],
    permission: "read",
    kind: "query",
    output: InvitationList,
    rest: {
      method: "GET",
      path: "/organizations/{accountID}/invitations",
      operationId: "listInvitations",
      summary: "List invitations",
      tag,
      params: AccountParam,
      query: ListInvitationsQuery,
    },
    handler: async ({ key, input: { accountID, ...query } }) => listInvitations(creatorActor(key, accountID), query),
  }),
  // POST /api/v1/organizations/{accountID}/invitations/{invitationId}/resend
  operation({
    name: "team.resendInvitation",
    auth: ["apiKey"],
    permission: "write",
    kind: "mutation",
    output: Invitation,
    rest: {
      method: "POST",
      path: "/organizations/{accountID}/invitations/{invitationId}/resend",
      operationId: "resendInvitation",
      summary: "Resend a pending invitation",
      description: "Issues a new link (the old one stops working), resets the 7-day expiry and emails it again.",
      tag,
      params: InvitationParams,
      errors: ["invalid_state"],
    },
    handler: async ({ key, input }) => resendInvitation(creatorActor(key, input.accountID), input.invitationId),
  }),
  // DELETE /api/v1/organizations/{accountID}/invitations/{invitationId} — cancel
  operation({
    name: "team.cancelInvitation",
    auth: ["apiKey"],
    permission: "write",
    kind: "mutation",
    output: Invitation,
    rest: {
      method: "DELETE",
      path: "/organizations/{accountID}/invitations/{invitationId}",
      operationId: "cancelInvitation",
      summary: "Cancel a pending invitation",
      tag,
      params: InvitationParams,
      errors: ["invalid_state"],
    },
    handler: async ({ key, input }) => cancelInvitation(creatorActor(key, input.accountID), input.invitationId),
  }),

  // The dashboard
  operation({
    name: "team.members",
    auth: ["session"],
    permission: "read",
    kind: "query",
    input: PageQuery,
    output: MemberList,
    dashboard: true,
    handler: ({ actor, input }) => listMembers(actor, input),
  }),
  operation({
    name: "team.updateRole",
    auth: ["session"],
    permission: "write",
    recentAuth: true,
    kind: "mutation",
    input: IdParam.extend({ role: AssignableRole }),
    output: Member,
    dashboard: true,
    handler: ({ actor, input }) => updateMemberRole(actor, input.id, input.role),
  }),
  /** The member's active API keys: what removing them revokes (the removal dialog names them). */
  operation({
    name: "team.activeApiKeys",
    auth: ["session"],
    permission: "read",
    kind: "query",
    input: IdParam,
    output: z.array(ApiKey),
    dashboard: true,
    handler: ({ actor, input }) => activeApiKeysOfMember(actor, input.id),
  }),
  /** Answers the API keys the removal revoked. */
  operation({
    name: "team.remove",
    auth: ["session"],
    permission: "write",
    recentAuth: true,
    kind: "mutation",
    input: IdParam,
    output: MemberRemoval,
    dashboard: true,
    handler: ({ actor, input }) => removeMember(actor, input.id),
  }),
  operation({
    name: "team.invitations",
    auth: ["session"],
    permission: "read",
    kind: "query",
    input: ListInvitationsQuery,
    output: InvitationList,
    dashboard: true,
    handler: ({ actor, input }) => listInvitations(actor, input),
  }),
  operation({
    name: "team.invite",
    auth: ["session"],
    permission: "write",
    kind: "mutation",
    input: InviteMemberInput,
    output: Invitation,
    dashboard: true,
    handler: ({ actor, input }) => inviteMember(actor, input),
  }),
  operation({
    name: "team.resend",
    auth: ["session"],
    permission: "write",
    kind: "mutation",
    input: IdParam,
    output: Invitation,
    dashboard: true,
    handler: ({ actor, input }) => resendInvitation(actor, input.id),
  }),
  operation({
    name: "team.cancel",
    auth: ["session"],
    permission: "write",
    kind: "mutation",
    input: IdParam,
    output: Invitation,
    dashboard: true,
    handler: ({ actor, input }) => cancelInvitation(actor, input.id),
  }),
  /** The invitee joins; works for a user without any organization yet. */
  operation({
    name: "team.accept",
    auth: ["user"],
    permission: "write",
    kind: "mutation",
    input: z.object({ token: z.string().min(1).max(200) }),
    output: AcceptedInvitation,
    dashboard: true,
    handler: ({ user, input }) => acceptInvitation({ id: user.id, email: user.email }, input.token),
  }),
] as const;
