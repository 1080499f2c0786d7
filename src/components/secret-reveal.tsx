"use client";

import { CopyButton } from "@/components/copy-button";
import { Button } from "@/components/ui/button";

/** A secret shown the one time it exists in the clear, with copy and "stored" buttons. */
export function SecretReveal({
  secret,
  testId,
  copyLabel,
  onDone,
}: {
  secret: string;
  testId: string;
  copyLabel: string;
  onDone: () => void;
}) {
  return (
    <>
      <code data-testid={testId} className="block break-all rounded-md bg-slate-900 px-3 py-3 font-mono text-sm text-emerald-300">
        {secret}
      </code>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onDone}>
          I have stored it
        </Button>
        <CopyButton value={secret} label={copyLabel} />
      </div>
    </>
  );
}
