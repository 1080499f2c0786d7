"use client";

import { RefreshCw } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/field";
import { displayMoney } from "@/lib/money-format";
import { portalButton, portalCall } from "./api";

/** Starts a renewal payment and goes to the hosted checkout. */
export function RenewButton({
  organizationId,
  coverageId,
  price,
  currency,
  onSale,
}: {
  organizationId: string;
  coverageId: string;
  price: string;
  currency: string;
  onSale: boolean;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!onSale) return <p className="text-sm text-slate-600">This policy is no longer sold: contact the business to renew.</p>;
  return (
    <div className="space-y-2">
      <Button
        type="button"
        loading={busy}
        className={portalButton}
        onClick={async () => {
          setBusy(true);
          setError(null);
          try {
            const { authorizationUrl } = await portalCall<{ authorizationUrl: string }>(
              `/api/portal/${organizationId}/coverages/${coverageId}/renew`,
              { method: "POST" },
            );
            window.location.assign(authorizationUrl);
          } catch (err) {
            setError((err as Error).message);
            setBusy(false);
          }
        }}
      >
        <RefreshCw className="h-4 w-4" aria-hidden /> Renew for {displayMoney(price, currency)}
      </Button>
      <FormError message={error} />
    </div>
  );
}
