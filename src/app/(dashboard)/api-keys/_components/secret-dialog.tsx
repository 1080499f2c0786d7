"use client";

import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { CopyButton } from "@/components/copy-button";
import type { ApiKeyWithSecret } from "@/server/api-keys/schemas";

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
          <code
            data-testid="api-key-secret"
            className="block break-all rounded-md bg-slate-900 px-3 py-3 font-mono text-sm text-emerald-300"
          >
            {apiKey.key}
          </code>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={onClose}>
              I have stored it
            </Button>
            <CopyButton value={apiKey.key} label="Copy key" />
          </div>
        </div>
      )}
    </Dialog>
  );
}
