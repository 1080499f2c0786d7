import { M, z } from "@/lib/messages";
import { ApiKey } from "@/lib/schemas/api-keys";
import { pageOf, PageQuery } from "@/lib/schemas/pagination";

/** Roles that can be given; OWNER is only ever the organization's creator. */
export const AssignableRole = z.enum(["ADMIN", "MEMBER"]);

export const InviteMemberInput = z
  .strictObject({
    email: z
      .email(M.email)
      .max(254)
      .transform((e) => e.toLowerCase()),
    role: AssignableRole,
  })
  .meta({ id: "InviteMemberInput" });
export type InviteMemberInput = z.output<typeof InviteMemberInput>;

export const UpdateMemberInput = z.strictObject({ role: AssignableRole }).meta({ id: "UpdateMemberInput" });

export const INVITATION_STATUSES = ["pending", "accepted", "cancelled", "expired"] as const;
export const ListInvitationsQuery = PageQuery.extend({
  status: z.enum(INVITATION_STATUSES).optional(),
});
export type ListInvitationsQuery = z.output<typeof ListInvitationsQuery>;

const Role = z.enum(["OWNER", "ADMIN", "MEMBER"]);

export const Member = z
  .object({
    id: z.string(),
    userId: z.string(),
    name: z.string(),
    email: z.string(),
    role: Role,
    joinedAt: z.iso.datetime(),
  })
  .meta({ id: "Member" });
export type Member = z.infer<typeof Member>;

export const MemberList = pageOf(Member, "MemberList");

export const Invitation = z
  .object({
    id: z.string(),
    email: z.string(),
    role: Role,
    status: z.enum(INVITATION_STATUSES),
    expiresAt: z.iso.datetime(),
    invitedBy: z.object({ userId: z.string(), name: z.string(), email: z.string() }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Invitation" });
export type Invitation = z.infer<typeof Invitation>;

export const InvitationList = pageOf(Invitation, "InvitationList");

/** The organization an accepted invitation joined (dashboard). */
export const AcceptedInvitation = z.object({ organizationId: z.string() });
export type AcceptedInvitation = z.infer<typeof AcceptedInvitation>;

/** What removing a member did besides: their API keys of the organization it revoked (dashboard). */
export const MemberRemoval = z.object({ revokedApiKeys: z.array(ApiKey) });
export type MemberRemoval = z.infer<typeof MemberRemoval>;

/** What the acceptance page may show to whoever holds the link. */
export interface InvitationPreview {
  status: (typeof INVITATION_STATUSES)[number];
  email: string;
  role: "OWNER" | "ADMIN" | "MEMBER";
  organizationName: string;
  inviterName: string;
  expiresAt: string;
}
