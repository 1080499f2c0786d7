"use client";

// One audit entry in a drawer from the right (a Radix dialog: focus trapped,
// Escape closes, focus goes back): who, what, where from, and its details as
// pretty-printed JSON. Loaded when first opened (lazyDialog).
import * as DialogPrimitive from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import type { AuditLogEntry } from "@/lib/schemas/audit";
import { formatDateTime } from "@/lib/format";
import { ActorBadge } from "./actor-badge";

const PRE =
  "mt-1 max-h-[50vh] overflow-y-auto overflow-x-hidden whitespace-pre-wrap rounded bg-slate-100 p-3 font-mono text-xs text-slate-900 [overflow-wrap:anywhere] focus-visible:outline-2 focus-visible:outline-brand-600";

export function EntryDrawer({ entry, onClose }: { entry: AuditLogEntry | null; onClose: () => void }) {
  return (
    <DialogPrimitive.Root open={entry !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-slate-900/40 backdrop-blur-[1px]" />
        <DialogPrimitive.Content
          className="fixed inset-y-0 right-0 z-50 flex w-full max-w-md flex-col overflow-y-auto bg-white p-6 shadow-xl [overflow-wrap:anywhere]"
          data-testid="audit-entry-drawer"
        >
          {entry && (
            <>
              <div className="mb-4 flex items-start justify-between gap-4">
                <div className="min-w-0">
                  <DialogPrimitive.Title className="font-mono text-base font-semibold">{entry.action}</DialogPrimitive.Title>
                  <DialogPrimitive.Description className="mt-1 text-sm text-slate-600">
                    {formatDateTime(entry.createdAt)}
                  </DialogPrimitive.Description>
                </div>
                <DialogPrimitive.Close className="rounded p-1 text-slate-500 hover:bg-slate-100" aria-label="Close">
                  <X className="h-4 w-4" aria-hidden />
                </DialogPrimitive.Close>
              </div>
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
                <dt className="text-slate-600">Who</dt>
                <dd className="flex min-w-0 flex-wrap items-center gap-2">
                  <ActorBadge type={entry.actor.type} />
                  <span className="min-w-0 text-slate-900">{entry.actor.label}</span>
                </dd>
                <dt className="text-slate-600">Resource</dt>
                <dd className="font-mono text-xs text-slate-900">
                  {entry.resource.type}
                  {entry.resource.id ? ` ${entry.resource.id}` : ""}
                </dd>
                <dt className="text-slate-600">Mode</dt>
                <dd className="text-slate-900">{entry.livemode ? "Live" : "Test"}</dd>
                <dt className="text-slate-600">IP address</dt>
                <dd className="font-mono text-xs text-slate-900">{entry.ipAddress ?? "—"}</dd>
                <dt className="text-slate-600">Request ID</dt>
                <dd className="font-mono text-xs text-slate-900" data-testid="audit-request-id">
                  {entry.requestId ?? "—"}
                </dd>
              </dl>
              <h3 className="mt-6 text-xs font-medium uppercase text-slate-600" id="audit-entry-details">
                Details
              </h3>
              <pre className={PRE} tabIndex={0} aria-labelledby="audit-entry-details" data-testid="audit-details">
                {JSON.stringify(entry.details, null, 2)}
              </pre>
            </>
          )}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
