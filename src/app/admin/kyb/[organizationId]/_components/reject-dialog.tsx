"use client";

import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { toast } from "@/lib/toast";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, FormError, Textarea } from "@/components/ui/field";
import type { KybReview } from "@/lib/schemas/admin";
import { errorInfo, useTRPC } from "@/trpc/react";

// The service's bounds (RejectKybInput); checked here only to answer sooner.
const MIN = 5;
const MAX = 1000;

export function RejectDialog({
  open,
  onOpenChange,
  organization,
  onDecided,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  organization: KybReview["organization"];
  onDecided: () => void;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Reject ${organization.name}?`}
      description="The business sees your reason on its verification page and resubmits corrected documents."
    >
      {/* Mounted per opening, so every rejection starts from an empty reason. */}
      {open && <RejectForm organizationId={organization.id} onCancel={() => onOpenChange(false)} onDecided={onDecided} />}
    </Dialog>
  );
}

function RejectForm({
  organizationId,
  onCancel,
  onDecided,
}: {
  organizationId: string;
  onCancel: () => void;
  onDecided: () => void;
}) {
  const trpc = useTRPC();
  const reject = useMutation(trpc.admin.rejectKyb.mutationOptions());
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    if (reason.trim().length < MIN) return setError(`Say why in at least ${MIN} characters`);
    setError(null);
    try {
      await reject.mutateAsync({ organizationId, reason });
      toast.success("KYB rejected");
      onCancel();
      onDecided();
    } catch (err) {
      const info = errorInfo(err);
      const field = info.fieldErrors.find((f) => f.path === "reason");
      if (field) setError(field.message.charAt(0).toUpperCase() + field.message.slice(1));
      else setFormError(info.message);
      // Decided by someone else meanwhile: show the status as it is now.
      if (info.code === "invalid_state") onDecided();
    }
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <FormError message={formError} />
      <Field
        id="reject-reason"
        label="Reason"
        error={error ?? undefined}
        hint="For example: “The tax certificate is for another company.”"
      >
        <Textarea
          id="reject-reason"
          rows={5}
          autoFocus
          maxLength={MAX}
          value={reason}
          aria-invalid={!!error}
          aria-describedby={error ? "reject-reason-error" : undefined}
          onChange={(e) => setReason(e.target.value)}
        />
      </Field>
      <p className="text-right text-xs text-slate-600">
        {reason.length} / {MAX}
      </p>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" variant="danger" loading={reject.isPending}>
          Reject KYB
        </Button>
      </div>
    </form>
  );
}
