"use client";

import { CreditCard } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/dialog";
import { FormError } from "@/components/ui/field";
import { Switch } from "@/components/ui/switch";
import { formatDate } from "@/lib/format";
import { displayMoney } from "@/lib/money-format";
import { savedCardLabel } from "@/lib/saved-card";
import { portalCall } from "./api";

type Card = { brand: string; last4: string; expMonth: number; expYear: number };

/** Automatic renewal of one cover: on or off, the saved card, and removing it. */
export function AutoRenew({
  organizationId,
  coverageId,
  autoRenew,
  card,
  endsAt,
  price,
  currency,
  status,
  graceEndsAt,
}: {
  organizationId: string;
  coverageId: string;
  autoRenew: boolean;
  card: Card | null;
  endsAt: string;
  price: string;
  currency: string;
  status: string;
  graceEndsAt: string | null;
}) {
  const router = useRouter();
  const [busy, setBusy] = useState<"switch" | "remove" | null>(null);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const base = `/api/portal/${organizationId}/coverages/${coverageId}`;

  const run = async (what: "switch" | "remove", call: () => Promise<unknown>) => {
    setBusy(what);
    setError(null);
    try {
      await call();
      setConfirmRemove(false);
      router.refresh();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="space-y-3" data-testid="portal-auto-renew">
      {status === "past_due" && (
        <p role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Your renewal payment was declined. You are still covered until {formatDate(graceEndsAt ?? endsAt)} while we try your
          card again; renew below with another card to stay covered.
        </p>
      )}
      <div className="flex items-start justify-between gap-4">
        <div className="text-sm">
          <p className="font-medium text-slate-900">Renew automatically</p>
          <p className="mt-0.5 text-slate-600" data-testid="portal-auto-renew-state">
            {autoRenew && card
              ? `On: ${displayMoney(price, currency)} is charged to your saved card on ${formatDate(endsAt)}.`
              : card
                ? "Off: your cover ends on its end date unless you renew it."
                : "Off: no card is saved. Renew with a card and tick “Renew automatically” to turn it on."}
          </p>
        </div>
        <Switch
          checked={autoRenew}
          disabled={busy !== null || (!card && !autoRenew) || status === "expired" || status === "cancelled"}
          label="Renew automatically"
          onCheckedChange={(on) =>
            run("switch", () => portalCall(`${base}/auto-renew`, { method: "POST", body: { autoRenew: on } }))
          }
        />
      </div>
      {card && (
        <div className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-slate-200 px-3 py-2">
          <span className="flex items-center gap-2 text-sm text-slate-700" data-testid="portal-saved-card">
            <CreditCard className="h-4 w-4 text-slate-500" aria-hidden /> {savedCardLabel(card)}
          </span>
          <Button variant="secondary" size="sm" onClick={() => setConfirmRemove(true)} disabled={busy !== null}>
            Remove card
          </Button>
        </div>
      )}
      <FormError message={error} />
      <ConfirmDialog
        open={confirmRemove}
        onOpenChange={setConfirmRemove}
        title="Remove your saved card?"
        description="Automatic renewal stops: your cover then ends on its end date unless you renew it by hand."
        confirmLabel="Remove card"
        loading={busy === "remove"}
        onConfirm={() => run("remove", () => portalCall(`${base}/card`, { method: "DELETE" }))}
      />
    </div>
  );
}
