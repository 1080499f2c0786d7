"use client";

// Staff file a claim for a customer: POST /api/v1/claims run as the signed-in
// member (/api/upload/claims), the same service as the API and the portal, so
// the claim links to the customer's coverage of the policy when there is one
// and its `claim.submitted` event and email go out as for any other claim.
// The claim and its evidence (up to five files) go in ONE multipart request
// with upload progress and are stored together: a refused file files nothing,
// and the dialog says which file and why.
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { FileText, Paperclip, X } from "lucide-react";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "@/lib/toast";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, FormError, Input, Textarea } from "@/components/ui/field";
import { UploadProgressBar } from "@/components/upload/upload-progress";
import { formatBytes, MAX_UPLOAD_BYTES, UploadError, uploadWithProgress } from "@/components/upload/xhr-upload";
import { NativeSelect } from "@/components/ui/select";
import { M, z } from "@/lib/messages";
import { ClaimDetailsValues } from "@/lib/claim-values";
import { CLAIM_TYPES } from "@/lib/enums";
import { useTRPC } from "@/trpc/react";
import { ACCEPT, localProblem, MAX_CLAIM_ATTACHMENTS } from "./attachment-upload";

const Values = ClaimDetailsValues.extend({
  policyId: z.string().min(1, "Choose the policy the claim is on"),
  email: z.string().trim().min(1, M.requiredWhat("the customer's email")).pipe(z.email(M.email)),
});
type Values = z.infer<typeof Values>;

/** The file fields of the form, in order: file1…file5 (as the API and the portal take them). */
const fileField = (index: number) => `file${index + 1}`;

/** A sentence: capital first letter, one full stop. */
const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`.replace(/\.?$/, ".");

/** The "File a claim" dialog, loaded when first opened by FileClaimButton (./file-claim-button). */
export function FileClaimDialog({
  open,
  onOpenChange,
  customerEmail,
  policies,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  customerEmail?: string;
  policies?: { id: string; name: string }[];
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="File a claim"
      description="For a customer who reported a loss to you. It is reviewed like any other claim."
    >
      {open && <FileClaimForm customerEmail={customerEmail} policies={policies} onDone={() => onOpenChange(false)} />}
    </Dialog>
  );
}

function FileClaimForm({
  customerEmail,
  policies: given,
  onDone,
}: {
  customerEmail?: string;
  policies?: { id: string; name: string }[];
  onDone: () => void;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const all = useQuery({ ...trpc.policies.list.queryOptions({ limit: 100 }), enabled: !given });
  const policies = given ?? (all.data?.data ?? []).map((p) => ({ id: p.id, name: p.name }));
  const [formError, setFormError] = useState<string | null>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [filesError, setFilesError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const form = useForm<Values>({
    resolver: zodResolver(Values),
    defaultValues: {
      policyId: given?.length === 1 ? given[0]!.id : "",
      email: customerEmail ?? "",
      type: "other",
      amount: "",
      description: "",
    },
  });
  const { errors, isSubmitting } = form.formState;

  const pick = (picked: File[]) => {
    const next = [...files, ...picked.filter((p) => !files.some((f) => f.name === p.name && f.size === p.size))];
    if (next.length > MAX_CLAIM_ATTACHMENTS) {
      setFilesError(
        `Choose at most ${MAX_CLAIM_ATTACHMENTS} files: a claim can have at most ${MAX_CLAIM_ATTACHMENTS} attachments.`,
      );
      return;
    }
    const problems = picked.map(localProblem).filter((p): p is string => p !== null);
    setFilesError(problems.length ? problems.join(" ") : null);
    if (!problems.length) setFiles(next);
  };

  const onSubmit = form.handleSubmit(async (v) => {
    setFormError(null);
    setFilesError(null);
    const sent = files;
    setProgress(0);
    let claim: { id: string };
    try {
      // One request: the claim's fields and its files, stored together or not at all.
      claim = await uploadWithProgress<{ id: string }>({
        url: "/api/upload/claims",
        fields: { policyId: v.policyId, email: v.email, type: v.type, amount: v.amount, description: v.description },
        files: Object.fromEntries(sent.map((f, i) => [fileField(i), f])),
        onProgress: (p) => setProgress(p.percent),
      });
    } catch (err) {
      setProgress(null);
      showRefusal(err, sent);
      return;
    }
    setProgress(null);
    await queryClient.invalidateQueries({ queryKey: trpc.claims.pathKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.customers.pathKey() });
    toast.success(sent.length ? `Claim filed with ${sent.length === 1 ? "1 file" : `${sent.length} files`}` : "Claim filed");
    onDone();
    router.push(`/claims/${claim.id}`);
  });

  /** Puts the server's refusal where it belongs: on its field, on the file it names, or above the form. Nothing was filed. */
  const showRefusal = (err: unknown, sent: File[]) => {
    if (!(err instanceof UploadError)) {
      setFormError("The claim was not filed. Try again.");
      return;
    }
    const refusedFiles: string[] = [];
    let placed = false;
    for (const e of err.fieldErrors) {
      const index = sent.findIndex((_, i) => fileField(i) === e.path);
      if (index >= 0) {
        // A 413 or 415 names one file in its detail ("file2: only PDF, …"); a 422 says it per field.
        const why = err.fieldErrors.length === 1 ? err.message.replace(/^file\d+:\s*/, "") : e.message;
        refusedFiles.push(`“${sent[index]!.name}” cannot be attached: ${sentence(why)}`);
      } else if (e.path in Values.shape) {
        form.setError(e.path as keyof Values, { message: e.message });
        placed = true;
      }
    }
    if (refusedFiles.length) {
      setFilesError(`${refusedFiles.join(" ")} Nothing was filed: remove or replace it, then file the claim again.`);
    } else if (!placed) {
      setFormError(err.status === 0 ? err.message : `The claim was not filed: ${sentence(err.message)}`);
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <FormError message={formError} />
      <Field id="claim-policy" label="Policy" error={errors.policyId?.message}>
        <NativeSelect id="claim-policy" aria-invalid={!!errors.policyId} {...form.register("policyId")}>
          <option value="">{all.isPending && !given ? "Loading policies…" : "Choose a policy"}</option>
          {policies.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field
        id="claim-email"
        label="Customer email"
        hint="Links the claim to the customer's coverage of this policy."
        error={errors.email?.message}
      >
        <Input
          id="claim-email"
          type="email"
          readOnly={!!customerEmail}
          aria-invalid={!!errors.email}
          {...form.register("email")}
        />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="claim-type" label="Type" error={errors.type?.message}>
          <NativeSelect id="claim-type" aria-invalid={!!errors.type} {...form.register("type")}>
            {CLAIM_TYPES.map((t) => (
              <option key={t} value={t}>
                {t[0]!.toUpperCase() + t.slice(1)}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id="claim-amount" label="Amount claimed" error={errors.amount?.message}>
          <Input
            id="claim-amount"
            inputMode="decimal"
            placeholder="0.00"
            aria-invalid={!!errors.amount}
            {...form.register("amount")}
          />
        </Field>
      </div>
      <Field id="claim-description" label="What happened" error={errors.description?.message}>
        <Textarea
          id="claim-description"
          rows={4}
          maxLength={2000}
          aria-invalid={!!errors.description}
          {...form.register("description")}
        />
      </Field>
      <div className="space-y-1.5">
        <p id="claim-files-label" className="text-sm font-medium text-slate-700">
          Evidence (optional)
        </p>
        <input
          ref={picker}
          type="file"
          multiple
          accept={ACCEPT}
          hidden
          data-testid="claim-files-input"
          onChange={(e) => {
            const picked = Array.from(e.target.files ?? []);
            e.target.value = "";
            pick(picked);
          }}
        />
        {files.length > 0 && (
          <ul aria-labelledby="claim-files-label" className="divide-y divide-slate-200 rounded-md border border-slate-200">
            {files.map((f) => (
              <li key={`${f.name}-${f.size}`} className="flex items-center gap-2 px-3 py-2 text-sm">
                <FileText className="h-4 w-4 shrink-0 text-slate-500" aria-hidden />
                <span className="min-w-0 flex-1 [overflow-wrap:anywhere]">{f.name}</span>
                <span className="shrink-0 text-xs text-slate-600">{formatBytes(f.size)}</span>
                <button
                  type="button"
                  aria-label={`Remove ${f.name}`}
                  disabled={isSubmitting}
                  onClick={() => {
                    setFiles((all) => all.filter((x) => x !== f));
                    setFilesError(null);
                  }}
                  className="rounded p-1 text-slate-600 hover:bg-slate-100 hover:text-slate-900 disabled:opacity-50"
                >
                  <X className="h-4 w-4" aria-hidden />
                </button>
              </li>
            ))}
          </ul>
        )}
        <Button
          type="button"
          variant="secondary"
          size="sm"
          aria-describedby="claim-files-hint"
          disabled={isSubmitting || files.length >= MAX_CLAIM_ATTACHMENTS}
          onClick={() => picker.current?.click()}
        >
          <Paperclip className="h-4 w-4" aria-hidden /> {files.length ? "Add more files" : "Add files"}
        </Button>
        <p id="claim-files-hint" className="text-xs text-slate-600">
          Up to {MAX_CLAIM_ATTACHMENTS} PDF, PNG or JPEG files, {formatBytes(MAX_UPLOAD_BYTES)} each, sent with the claim.
        </p>
        {filesError && (
          <p role="alert" className="text-xs text-red-600">
            {filesError}
          </p>
        )}
      </div>
      {progress !== null && files.length > 0 && (
        <UploadProgressBar
          percent={progress}
          label={`Uploading the claim with ${files.length === 1 ? "1 file" : `${files.length} files`}`}
        />
      )}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="secondary" onClick={onDone} disabled={isSubmitting}>
          Cancel
        </Button>
        <Button type="submit" loading={isSubmitting}>
          File claim
        </Button>
      </div>
    </form>
  );
}
