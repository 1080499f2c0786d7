"use client";

// The organization's two-factor requirement: the owner turns it on (with
// two-factor on their own account first) and every member without it is sent
// to set it up before any other page. Changing it asks for a recent password.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ShieldCheck } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { Badge, Card, ErrorState, Skeleton } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/dialog";
import { Switch } from "@/components/ui/switch";
import { toast } from "@/lib/toast";
import { errorInfo, useTRPC } from "@/trpc/react";

export function TwoFactorRequirementCard() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const state = useQuery(trpc.security.twoFactorRequirement.queryOptions());
  const [asking, setAsking] = useState<boolean | null>(null);
  const change = useMutation(
    trpc.security.setTwoFactorRequirement.mutationOptions({
      onSuccess: (next) => {
        queryClient.setQueryData(trpc.security.twoFactorRequirement.queryKey(), next);
        toast.success(next.required ? "Two-factor sign-in is now required." : "Two-factor sign-in is no longer required.");
        setAsking(null);
      },
      onError: (err) => {
        setAsking(null);
        toast.error(errorInfo(err).message);
      },
    }),
  );

  return (
    <Card className="mt-6">
      <h2 className="flex items-center gap-2 border-b border-slate-200 px-4 py-3 text-sm font-semibold sm:px-6">
        <ShieldCheck className="h-4 w-4" aria-hidden /> Two-factor sign-in
      </h2>
      {state.isPending ? (
        <div className="p-6" aria-label="Loading the two-factor requirement">
          <Skeleton className="h-5 w-2/3" />
        </div>
      ) : state.isError ? (
        <ErrorState message={errorInfo(state.error).message} onRetry={() => state.refetch()} />
      ) : (
        <div className="flex flex-col gap-4 p-4 sm:flex-row sm:items-start sm:justify-between sm:px-6">
          <div className="min-w-0 space-y-1 text-sm text-slate-700">
            <p>
              <Badge tone={state.data.required ? "green" : "slate"}>{state.data.required ? "Required" : "Optional"}</Badge>{" "}
              <span data-testid="two-factor-count">
                {state.data.members - state.data.membersWithout} of {state.data.members}{" "}
                {state.data.members === 1 ? "member has" : "members have"} it on.
              </span>
            </p>
            <p className="text-slate-600">
              {state.data.required
                ? "Members without it are asked to set it up before they can open the dashboard."
                : "Require it to ask every member for a code from an authenticator app when they sign in."}
            </p>
            {state.data.canChange && !state.data.youHaveIt && !state.data.required && (
              <p className="text-slate-600">
                Turn it on for your own account first:{" "}
                <Link className="font-medium text-brand-700 hover:underline" href="/account/security">
                  Account → Security
                </Link>
                .
              </p>
            )}
          </div>
          {state.data.canChange ? (
            <Switch
              label="Require two-factor sign-in for every member"
              checked={state.data.required}
              disabled={change.isPending || (!state.data.required && !state.data.youHaveIt)}
              onCheckedChange={(next) => setAsking(next)}
            />
          ) : (
            <p className="text-xs text-slate-600">Only the owner changes this.</p>
          )}
        </div>
      )}
      <ConfirmDialog
        open={asking !== null}
        onOpenChange={(open) => !open && !change.isPending && setAsking(null)}
        title={asking ? "Require two-factor sign-in?" : "Stop requiring two-factor sign-in?"}
        description={
          asking
            ? `Members without it (${state.data?.membersWithout ?? 0}) will have to set it up before they can use the dashboard again. API keys keep working.`
            : "Members will be able to sign in with their password alone and to turn two-factor off."
        }
        confirmLabel={asking ? "Require it" : "Stop requiring it"}
        confirmVariant={asking ? "primary" : "danger"}
        loading={change.isPending}
        onConfirm={() => asking !== null && change.mutate({ required: asking })}
      />
    </Card>
  );
}
