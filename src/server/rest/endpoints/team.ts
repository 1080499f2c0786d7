// Team management under /organizations/{accountID}: the key's own organization
// only (another id → 404), as the key's creator with their role there; a test
// key reads the team but never changes it (403). See ../user-scope.ts.
import { z } from "@/lib/messages";
import { PageQuery } from "@/server/pagination";
import { cancelInvitation, inviteMember, listInvitations, resendInvitation } from "@/server/team/invitations";
import { listMembers, removeMember, updateMemberRole } from "@/server/team/members";
import {
  Invitation,
  InvitationList,
  InviteMemberInput,
  ListInvitationsQuery,
  Member,
  MemberList,
  UpdateMemberInput,
} from "@/lib/schemas/team";
import { endpoint } from "../endpoint";
import { creatorActor } from "../user-scope";
import { AccountParam } from "./organizations";

const tag = "Team";
const MemberParams = AccountParam.extend({ memberId: z.string().min(1).max(100) });
const InvitationParams = AccountParam.extend({ invitationId: z.string().min(1).max(100) });

export const teamEndpoints = [
  // POST /api/v1/organizations/{accountID}/invite — email an invitation
  endpoint({
    method: "POST",
    path: "/organizations/{accountID}/invite",
    operationId: "inviteMember",
    summary: "Invite a team member",
    description: "Emails a link valid for 7 days. An existing member, or an email with a pending invitation, answers 409.",
    tag,
    permission: "write",
    params: AccountParam,
    body: InviteMemberInput,
    response: Invitation,
    status: 201,
    errors: ["already_member", "invitation_pending", "invitation_limit_reached"],
    handler: async ({ key, params, body }) => inviteMember(creatorActor(key, params.accountID), body),
  }),
  // GET /api/v1/organizations/{accountID}/members
  endpoint({
    method: "GET",
    path: "/organizations/{accountID}/members",
    operationId: "listMembers",
    summary: "List team members",
    tag,
    permission: "read",
    params: AccountParam,
    query: PageQuery,
    response: MemberList,
    handler: async ({ key, params, query }) => listMembers(creatorActor(key, params.accountID), query),
  }),
  // PUT /api/v1/organizations/{accountID}/members/{memberId} — ADMIN ↔ MEMBER
  endpoint({
    method: "PUT",
    path: "/organizations/{accountID}/members/{memberId}",
    operationId: "updateMemberRole",
    summary: "Change a member's role",
    description: "ADMIN or MEMBER. The OWNER's role cannot be changed (409).",
    tag,
    permission: "write",
    params: MemberParams,
    body: UpdateMemberInput,
    response: Member,
    errors: ["invalid_state"],
    handler: async ({ key, params, body }) =>
      updateMemberRole(creatorActor(key, params.accountID), params.memberId, body.role),
  }),
  // DELETE /api/v1/organizations/{accountID}/members/{memberId} — remove (204)
  endpoint({
    method: "DELETE",
    path: "/organizations/{accountID}/members/{memberId}",
    operationId: "removeMember",
    summary: "Remove a member",
    description:
      "The member loses access at once, and every active API key they created in this organization is revoked in the same step (those keys then answer 401 `revoked_api_key`; `GET /business/api-keys` lists them as revoked). The OWNER cannot be removed (409).",
    tag,
    permission: "write",
    params: MemberParams,
    status: 204,
    errors: ["invalid_state"],
    // 204 per the contract: the revoked keys show as revoked in GET /business/api-keys.
    handler: async ({ key, params }) => {
      await removeMember(creatorActor(key, params.accountID), params.memberId);
    },
  }),
  // GET /api/v1/organizations/{accountID}/invitations — with ?status=
  endpoint({
    method: "GET",
    path: "/organizations/{accountID}/invitations",
    operationId: "listInvitations",
    summary: "List invitations",
    tag,
    permission: "read",
    params: AccountParam,
    query: ListInvitationsQuery,
    response: InvitationList,
    handler: async ({ key, params, query }) => listInvitations(creatorActor(key, params.accountID), query),
  }),
  // POST /api/v1/organizations/{accountID}/invitations/{invitationId}/resend
  endpoint({
    method: "POST",
    path: "/organizations/{accountID}/invitations/{invitationId}/resend",
    operationId: "resendInvitation",
    summary: "Resend a pending invitation",
    description: "Issues a new link (the old one stops working), resets the 7-day expiry and emails it again.",
    tag,
    permission: "write",
    params: InvitationParams,
    response: Invitation,
    errors: ["invalid_state"],
    handler: async ({ key, params }) =>
      resendInvitation(creatorActor(key, params.accountID), params.invitationId),
  }),
  // DELETE /api/v1/organizations/{accountID}/invitations/{invitationId} — cancel
  endpoint({
    method: "DELETE",
    path: "/organizations/{accountID}/invitations/{invitationId}",
    operationId: "cancelInvitation",
    summary: "Cancel a pending invitation",
    tag,
    permission: "write",
    params: InvitationParams,
    response: Invitation,
    errors: ["invalid_state"],
    handler: async ({ key, params }) =>
      cancelInvitation(creatorActor(key, params.accountID), params.invitationId),
  }),
];
