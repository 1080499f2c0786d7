"use client";

// A coverage's automatic renewal in the dashboard's tables: on or off, the
// saved card, and (owners and admins) the switch — PATCH /business/coverages/{id}.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Switch } from "@/components/ui/switch";
import { savedCardLabel } from "@/lib/saved-card";
import type { SavedCard } from "@/lib/schemas/coverages";
import { toast } from "@/lib/toast";
import { errorInfo, useTRPC } from "@/trpc/react";

export function AutoRenewCell({
  coverage,
  canChange,
}: {
  coverage: { id: string; autoRenew: boolean; card: SavedCard | null; status: string; policyName?: string };
  canChange: boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const update = useMutation(
    trpc.coverages.update.mutationOptions({
      onSuccess: (c) => {
        toast.success(c.autoRenew ? "Automatic renewal turned on" : "Automatic renewal turned off");
        void queryClient.invalidateQueries({ queryKey: trpc.customers.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.coverages.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.renewals.pathKey() });
      },
      onError: (err) => toast.error(errorInfo(err).message),
    }),
  );
  const valid = coverage.status === "active" || coverage.status === "past_due";
  return (
    <div className="flex items-center gap-3" data-testid="coverage-auto-renew">
      {canChange && valid && (coverage.card || coverage.autoRenew) && (
        <Switch
          checked={coverage.autoRenew}
          disabled={update.isPending}
          label={`Renew automatically${coverage.policyName ? `: ${coverage.policyName}` : ""}`}
          onCheckedChange={(autoRenew) => update.mutate({ id: coverage.id, autoRenew })}
        />
      )}
      <div className="whitespace-nowrap text-xs">
        <p className="font-medium text-slate-800">{coverage.autoRenew ? "Automatic" : "Manual"}</p>
        {coverage.card && <p className="text-slate-600">{savedCardLabel(coverage.card)}</p>}
      </div>
    </div>
  );
}
