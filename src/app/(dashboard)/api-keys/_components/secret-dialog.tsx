"use client";

import { SecretReveal } from "@/components/secret-reveal";
import { Dialog } from "@/components/ui/dialog";
import type { ApiKeyWithSecret } from "@/lib/schemas/api-keys";

/** Shows a key's secret the one time it exists in the clear. */
export function SecretDialog({ apiKey, onClose }: { apiKey: ApiKeyWithSecret | null; onClose: () => void }) {
  return (
    <Dialog
      open={apiKey !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Copy your API key"
      description="This is the only time the full key is shown. Store it somewhere safe now."
    >
      {apiKey && (
        <div className="space-y-4">
          <p className="text-sm text-slate-700">
            <span className="font-medium">{apiKey.name}</span> · {apiKey.permissions.join(" + ")}
          </p>
          <SecretReveal secret={apiKey.key} testId="api-key-secret" copyLabel="Copy key" onDone={onClose} />
        </div>
      )}
    </Dialog>
  );
}
