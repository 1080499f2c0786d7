"use client";

// Rolling an endpoint's signing secret: how long the old one keeps signing
// beside the new one (so the receiver can be updated without missing a
// delivery), then the new secret, shown once.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { SecretReveal } from "@/components/secret-reveal";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, FormError } from "@/components/ui/field";
import { NativeSelect } from "@/components/ui/select";
import { formatDateTime } from "@/lib/format";
import type { Webhook, WebhookWithSecret } from "@/lib/schemas/webhooks";
import { errorInfo, useTRPC } from "@/trpc/react";

const OVERLAPS = [
  { hours: 0, label: "Stop the old secret now" },
  { hours: 1, label: "1 hour" },
  { hours: 24, label: "24 hours" },
  { hours: 72, label: "3 days" },
] as const;

export function RollSecretDialog({
  webhook,
  onOpenChange,
  onRolled,
}: {
  webhook: Webhook | null;
  onOpenChange: (open: boolean) => void;
  onRolled: () => void;
}) {
  const trpc = useTRPC();
  const roll = useMutation(trpc.webhooks.rollSecret.mutationOptions());
  const [hours, setHours] = useState(24);
  const [rolled, setRolled] = useState<WebhookWithSecret | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const close = (open: boolean) => {
    if (!open) {
      setRolled(null);
      setFormError(null);
      setHours(24);
    }
    onOpenChange(open);
  };
  const submit = async () => {
    if (!webhook) return;
    setFormError(null);
    try {
      setRolled(await roll.mutateAsync({ id: webhook.id, data: { expiresInHours: hours } }));
      onRolled();
    } catch (err) {
      setFormError(errorInfo(err).message);
    }
  };
  return (
    <Dialog
      open={webhook !== null}
      onOpenChange={(open) => !roll.isPending && close(open)}
      title={rolled ? "Copy the new signing secret" : "Roll the signing secret"}
      description={
        rolled
          ? rolled.previousSecretExpiresAt
            ? `Shown only now. Until ${formatDateTime(rolled.previousSecretExpiresAt)} deliveries carry a signature with each secret: update your receiver before then.`
            : "Shown only now. Deliveries are signed with it alone from now on."
          : `A new secret for ${webhook?.url ?? ""}. During the overlap each delivery is signed with both secrets, so your receiver keeps verifying while you deploy the new one.`
      }
    >
      {rolled ? (
        <div className="space-y-4">
          <SecretReveal secret={rolled.secret} testId="rolled-secret" copyLabel="Copy secret" onDone={() => close(false)} />
        </div>
      ) : (
        <div className="space-y-4">
          <FormError message={formError} />
          <Field id="roll-overlap" label="Keep the old secret for">
            <NativeSelect id="roll-overlap" value={hours} onChange={(e) => setHours(Number(e.target.value))}>
              {OVERLAPS.map((o) => (
                <option key={o.hours} value={o.hours}>
                  {o.label}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button type="button" variant="secondary" onClick={() => close(false)}>
              Cancel
            </Button>
            <Button type="button" variant={hours === 0 ? "danger" : "primary"} loading={roll.isPending} onClick={() => void submit()}>
              Roll secret
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
