"use client";

// The policyholder cancels their cover: first the quote (what comes back and
// why), then a reason, then a confirmation. The page reloads showing the
// cover cancelled. The API's schema (and zod) loads with the quote, not with
// the page.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { lazyModule } from "@/components/lazy-module";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/dialog";
import { Field, FormError, Textarea } from "@/components/ui/field";
import type { UploadError } from "@/components/upload/xhr-upload";
import { ruleSentence } from "@/lib/cancellation";
import { formatDate } from "@/lib/format";
import { displayMoney, parseDecimal } from "@/lib/money-format";
import type { CancellationQuote } from "@/lib/schemas/coverages";
import { portalCall } from "./api";

/** The API's schema for the reason (and zod): loaded with the quote, before the form shows. */
const cancelSchema = lazyModule(() => import("@/lib/schemas/coverages"));

export function CancelCover({ organizationId, coverageId }: { organizationId: string; coverageId: string }) {
  const router = useRouter();
  const base = `/api/portal/${organizationId}/coverages/${coverageId}`;
  const [quote, setQuote] = useState<CancellationQuote | null>(null);
  const [loading, setLoading] = useState(false);
  const [reason, setReason] = useState("");
  const [reasonError, setReasonError] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [cancelling, setCancelling] = useState(false);

  const loadQuote = async () => {
    cancelSchema.preload();
    setLoading(true);
    setError(null);
    try {
      setQuote(await portalCall<CancellationQuote>(`${base}/cancellation-quote`, { method: "GET" }));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setLoading(false);
    }
  };

  if (!quote) {
    return (
      <div className="space-y-2">
        <p className="text-sm text-slate-700">
          See what you would get back before you decide. Nothing changes until you confirm.
        </p>
        <Button type="button" variant="secondary" loading={loading} onClick={loadQuote}>
          See what cancelling refunds
        </Button>
        <FormError message={error} />
      </div>
    );
  }

  const refund = (parseDecimal(quote.refundAmount, quote.currency) ?? 0n) > 0n;
  return (
    <form
      className="space-y-4"
      noValidate
      onFocus={cancelSchema.preload}
      onSubmit={async (e) => {
        e.preventDefault();
        // Without the schema (its chunk failed to load) the server's check, the same one, answers.
        const parsed = (await cancelSchema().catch(() => null))?.PortalCancelInput.safeParse({ reason });
        setReasonError(parsed?.error?.issues[0]?.message);
        setError(null);
        if (!parsed || parsed.success) setConfirming(true);
      }}
    >
      <div className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm" data-testid="portal-cancellation-quote">
        <p className="font-medium">
          {refund ? `You would get back ${displayMoney(quote.refundAmount, quote.currency)}` : "Nothing would be refunded"}
        </p>
        <p className="mt-1 text-slate-600">{ruleSentence(quote)}</p>
        <p className="mt-1 text-xs text-slate-600">
          This period: {formatDate(quote.periodStart)} – {formatDate(quote.periodEnd)}
        </p>
      </div>
      <Field id="portal-cancel-reason" label="Why are you cancelling?" error={reasonError}>
        <Textarea
          id="portal-cancel-reason"
          rows={2}
          value={reason}
          aria-invalid={!!reasonError}
          aria-describedby={reasonError ? "portal-cancel-reason-error" : undefined}
          onChange={(e) => {
            setReason(e.target.value);
            setReasonError(undefined);
          }}
        />
      </Field>
      <FormError message={error} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="danger">
          Cancel my cover
        </Button>
        <Button type="button" variant="secondary" onClick={() => setQuote(null)}>
          Keep my cover
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={(next) => {
          if (!next) setConfirming(false);
        }}
        title="Cancel your cover now?"
        description={
          refund
            ? `Your cover ends now and ${displayMoney(quote.refundAmount, quote.currency)} goes back to the card you paid with. This cannot be undone.`
            : "Your cover ends now, without a refund. This cannot be undone."
        }
        confirmLabel="Cancel my cover"
        cancelLabel="Keep my cover"
        loading={cancelling}
        onConfirm={async () => {
          setCancelling(true);
          try {
            await portalCall(`${base}/cancel`, { method: "POST", body: { reason } });
            setConfirming(false);
            router.refresh();
          } catch (err) {
            const e = err as UploadError;
            setConfirming(false);
            const field = e.fieldErrors?.find((f) => f.path === "reason")?.message;
            setReasonError(field);
            setError(field ? null : e.message);
          } finally {
            setCancelling(false);
          }
        }}
      />
    </form>
  );
}
