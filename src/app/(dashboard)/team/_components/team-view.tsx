"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { MailPlus, Users } from "lucide-react";
import { useState } from "react";
import { toast } from "@/lib/toast";
import { lazyDialog } from "@/components/lazy-dialog";
import { Button } from "@/components/ui/button";
import { Badge, Card, EmptyState, ErrorState, PageHeader, Skeleton } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/dialog";
import { NativeSelect } from "@/components/ui/select";
import { formatDate } from "@/lib/format";
import type { Invitation, Member } from "@/lib/schemas/team";
import { errorInfo, useTRPC } from "@/trpc/react";
import { ReadOnlyNotice, useMe } from "../../_components/me";
import { TwoFactorRequirementCard } from "./two-factor-requirement";

// Loaded when first opened (its form, schema and zod with it).
const InviteDialog = lazyDialog(() => import("./invite-dialog").then((m) => m.InviteDialog));

const roleLabel = { OWNER: "Owner", ADMIN: "Admin", MEMBER: "Member" } as const;
/** Up to five key names, then how many more. */
const quotedNames = (keys: { name: string }[]) => {
  const shown = keys
    .slice(0, 5)
    .map((k) => `“${k.name}”`)
    .join(", ");
  return keys.length > 5 ? `${shown} and ${keys.length - 5} more` : shown;
};

type Pending = { kind: "remove"; member: Member } | { kind: "cancel"; invitation: Invitation } | null;

export function TeamView({ currentUserId }: { currentUserId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { can } = useMe();
  const members = useInfiniteQuery(
    trpc.team.members.infiniteQueryOptions({ limit: 50 }, { getNextPageParam: (l) => l.nextCursor ?? undefined }),
  );
  const invitations = useInfiniteQuery(
    trpc.team.invitations.infiniteQueryOptions(
      { limit: 50, status: "pending" },
      { getNextPageParam: (l) => l.nextCursor ?? undefined },
    ),
  );
  const [inviting, setInviting] = useState(false);
  const [pending, setPending] = useState<Pending>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.team.pathKey() });
  const onError = (err: unknown) => toast.error(errorInfo(err).message);

  const updateRole = useMutation(
    trpc.team.updateRole.mutationOptions({ onSuccess: () => (toast.success("Role updated"), refresh()), onError }),
  );
  const remove = useMutation(trpc.team.remove.mutationOptions());
  const resend = useMutation(
    trpc.team.resend.mutationOptions({
      onSuccess: (i) => (toast.success(`Invitation sent again to ${i.email}`), refresh()),
      onError,
    }),
  );
  const cancel = useMutation(trpc.team.cancel.mutationOptions());
  // What the removal will revoke, named before confirming.
  const removing = pending?.kind === "remove" ? pending.member : null;
  const keysToRevoke = useQuery({
    ...trpc.team.activeApiKeys.queryOptions({ id: removing?.id ?? "" }),
    enabled: removing !== null,
    staleTime: 0,
  });

  const confirm = async () => {
    if (!pending) return;
    try {
      if (pending.kind === "remove") {
        const { revokedApiKeys } = await remove.mutateAsync({ id: pending.member.id });
        toast.success(`${pending.member.name} was removed`, {
          description: revokedApiKeys.length ? `Revoked their API keys: ${quotedNames(revokedApiKeys)}` : undefined,
        });
        void queryClient.invalidateQueries({ queryKey: trpc.apiKeys.pathKey() });
      } else {
        await cancel.mutateAsync({ id: pending.invitation.id });
        toast.success(`Invitation to ${pending.invitation.email} cancelled`);
      }
      setPending(null);
      await refresh();
    } catch (err) {
      onError(err);
    }
  };

  const memberRows = members.data?.pages.flatMap((p) => p.data) ?? [];
  const inviteRows = invitations.data?.pages.flatMap((p) => p.data) ?? [];

  return (
    <>
      <PageHeader
        title="Team"
        description="Who can work in this organization. Members manage policies and claims; admins manage everything."
        actions={
          can.admin && (
            <Button onClick={() => setInviting(true)}>
              <MailPlus className="h-4 w-4" aria-hidden /> Invite
            </Button>
          )
        }
      />
      {!can.admin && (
        <div className="mb-4">
          <ReadOnlyNotice>Only owners and admins invite, change or remove members.</ReadOnlyNotice>
        </div>
      )}

      <Card>
        <h2 className="border-b border-slate-200 px-4 py-3 text-sm font-semibold sm:px-6">Members</h2>
        {members.isPending ? (
          <div className="space-y-3 p-6" aria-label="Loading members">
            <Skeleton className="h-5 w-1/2" />
            <Skeleton className="h-5 w-2/3" />
          </div>
        ) : members.isError ? (
          <ErrorState message={errorInfo(members.error).message} onRetry={() => members.refetch()} />
        ) : (
          <ul role="list" className="divide-y divide-slate-200">
            {memberRows.map((m) => (
              <li
                key={m.id}
                data-testid="member-row"
                className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between sm:px-6"
              >
                <div className="min-w-0">
                  <p className="font-medium text-slate-900">
                    {m.name} {m.userId === currentUserId && <span className="text-xs font-normal text-slate-600">(you)</span>}
                  </p>
                  <p className="text-sm text-slate-600 [overflow-wrap:anywhere]">{m.email}</p>
                  <p className="text-xs text-slate-600">Joined {formatDate(m.joinedAt)}</p>
                </div>
                <div className="flex items-center gap-2">
                  {m.role === "OWNER" || !can.admin ? (
                    <Badge tone={m.role === "OWNER" ? "blue" : "slate"}>{roleLabel[m.role]}</Badge>
                  ) : (
                    <>
                      <NativeSelect
                        aria-label={`Role of ${m.name}`}
                        className="h-8 w-32"
                        value={m.role}
                        disabled={updateRole.isPending}
                        onChange={(e) => updateRole.mutate({ id: m.id, role: e.target.value as "ADMIN" | "MEMBER" })}
                      >
                        <option value="ADMIN">Admin</option>
                        <option value="MEMBER">Member</option>
                      </NativeSelect>
                      <Button variant="secondary" size="sm" onClick={() => setPending({ kind: "remove", member: m })}>
                        Remove
                      </Button>
                    </>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
      </Card>

      <TwoFactorRequirementCard />

      <Card className="mt-6">
        <h2 className="border-b border-slate-200 px-4 py-3 text-sm font-semibold sm:px-6">Pending invitations</h2>
        {invitations.isPending ? (
          <div className="p-6">
            <Skeleton className="h-5 w-1/2" />
          </div>
        ) : invitations.isError ? (
          <ErrorState message={errorInfo(invitations.error).message} onRetry={() => invitations.refetch()} />
        ) : inviteRows.length === 0 ? (
          <EmptyState
            icon={<Users className="h-8 w-8" />}
            title="No pending invitations"
            description="Invite a colleague by email; the link is valid for 7 days."
          />
        ) : (
          <ul role="list" className="divide-y divide-slate-200">
            {inviteRows.map((i) => (
              <li
                key={i.id}
                data-testid="invitation-row"
                className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between sm:px-6"
              >
                <div className="min-w-0">
                  <p className="font-medium text-slate-900 [overflow-wrap:anywhere]">{i.email}</p>
                  <p className="text-xs text-slate-600">
                    {i.role === "ADMIN" ? "Admin" : "Member"} · invited by {i.invitedBy.name} · expires {formatDate(i.expiresAt)}
                  </p>
                </div>
                {can.admin && (
                  <div className="flex gap-2">
                    <Button
                      variant="secondary"
                      size="sm"
                      loading={resend.isPending && resend.variables?.id === i.id}
                      onClick={() => resend.mutate({ id: i.id })}
                    >
                      Resend
                    </Button>
                    <Button variant="secondary" size="sm" onClick={() => setPending({ kind: "cancel", invitation: i })}>
                      Cancel
                    </Button>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </Card>

      <InviteDialog open={inviting} onOpenChange={setInviting} onInvited={() => void refresh()} />
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        title={
          pending?.kind === "remove"
            ? `Remove ${pending.member.name}?`
            : `Cancel the invitation to ${pending?.kind === "cancel" ? pending.invitation.email : ""}?`
        }
        description={
          pending?.kind === "remove" ? (
            <>
              They lose access to this organization at once, including sessions already open. You can invite them again later.{" "}
              <span data-testid="keys-to-revoke">
                {keysToRevoke.isPending
                  ? "Checking their API keys…"
                  : keysToRevoke.isError
                    ? "Their API keys could not be listed; any they created here will be revoked."
                    : keysToRevoke.data.length === 0
                      ? "They have no active API keys here."
                      : `Their API keys will be revoked: ${quotedNames(keysToRevoke.data)}.`}
              </span>
            </>
          ) : (
            "The link in the email stops working. You can invite the address again later."
          )
        }
        confirmLabel={pending?.kind === "remove" ? "Remove member" : "Cancel invitation"}
        loading={remove.isPending || cancel.isPending}
        onConfirm={confirm}
      />
    </>
  );
}
