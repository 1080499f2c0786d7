"use client";

// Staff file a claim for a customer: the same service as POST /api/v1/claims,
// so the claim links to the customer's coverage of the policy when there is one
// and its `claim.submitted` event and email go out as for any other claim.
// Evidence chosen here (up to five files) is uploaded right after the claim is
// filed; a file that fails leaves the claim filed, and the dialog says so.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { FileText, Paperclip, X } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "@/lib/toast";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, FormError, Input, Textarea } from "@/components/ui/field";
import { UploadProgressBar } from "@/components/upload/upload-progress";
import { formatBytes, MAX_UPLOAD_BYTES } from "@/components/upload/xhr-upload";
import { NativeSelect } from "@/components/ui/select";
import { M, z } from "@/lib/messages";
import { ClaimDetailsValues } from "@/lib/claim-values";
import { CLAIM_TYPES } from "@/lib/enums";
import { errorInfo, useTRPC } from "@/trpc/react";
import { ACCEPT, localProblem, MAX_CLAIM_ATTACHMENTS, refusalOf, uploadClaimAttachment } from "./attachment-upload";

const Values = ClaimDetailsValues.extend({
  policyId: z.string().min(1, "Choose the policy the claim is on"),
  email: z.string().trim().min(1, M.requiredWhat("the customer's email")).pipe(z.email(M.email)),
});
type Values = z.infer<typeof Values>;

/** What became of the evidence when some of it was refused, the claim filed all the same. */
const partlySummary = (refused: number, total: number) =>
  total === 1
    ? "The claim was filed, but its file was not attached."
    : `The claim was filed, but ${refused} of its ${total} files ${refused === 1 ? "was" : "were"} not attached.`;

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
  const submit = useMutation(trpc.claims.submit.mutationOptions());
  const [formError, setFormError] = useState<string | null>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [filesError, setFilesError] = useState<string | null>(null);
  const [progress, setProgress] = useState<{ name: string; index: number; total: number; percent: number } | null>(null);
  // Filed, but some evidence was not attached: the claim exists, the dialog says what is missing.
  const [partly, setPartly] = useState<{ id: string; added: number; refused: string[] } | null>(null);
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
    let claim: { id: string };
    try {
      claim = await submit.mutateAsync({
        policyId: v.policyId,
        email: v.email,
        type: v.type,
        amount: Number(v.amount),
        description: v.description,
      });
    } catch (err) {
      const info = errorInfo(err);
      let placed = false;
      for (const e of info.fieldErrors) {
        if (e.path in Values.shape) {
          form.setError(e.path as keyof Values, { message: e.message });
          placed = true;
        }
      }
      if (!placed) setFormError(info.message);
      return;
    }
    // The claim exists from here on: each file is sent on its own, and one refused does not undo it.
    const refused: string[] = [];
    for (const [index, file] of files.entries()) {
      setProgress({ name: file.name, index, total: files.length, percent: 0 });
      try {
        await uploadClaimAttachment(claim.id, file, (percent) => setProgress((p) => p && { ...p, percent }));
      } catch (err) {
        refused.push(refusalOf(file, err));
      }
    }
    setProgress(null);
    await queryClient.invalidateQueries({ queryKey: trpc.claims.pathKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.customers.pathKey() });
    if (refused.length) {
      setPartly({ id: claim.id, added: files.length - refused.length, refused });
      return;
    }
    toast.success(files.length ? `Claim filed with ${files.length === 1 ? "1 file" : `${files.length} files`}` : "Claim filed");
    onDone();
    router.push(`/claims/${claim.id}`);
  });

  if (partly) {
    return (
      <div className="space-y-4" data-testid="claim-filed-partly">
        <div role="alert" className="space-y-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <p className="font-medium">{partlySummary(partly.refused.length, partly.added + partly.refused.length)}</p>
          <ul className="list-disc space-y-1 pl-5">
            {partly.refused.map((r) => (
              <li key={r} className="[overflow-wrap:anywhere]">
                {r}
              </li>
            ))}
          </ul>
          <p>You can add {partly.refused.length === 1 ? "it" : "them"} on the claim&apos;s page.</p>
        </div>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="secondary" onClick={onDone}>
            Close
          </Button>
          <Button asChild>
            <Link href={`/claims/${partly.id}`} onClick={onDone}>
              Open the claim
            </Link>
          </Button>
        </div>
      </div>
    );
  }

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
          Up to {MAX_CLAIM_ATTACHMENTS} PDF, PNG or JPEG files, {formatBytes(MAX_UPLOAD_BYTES)} each, uploaded once the claim is
          filed.
        </p>
        {filesError && (
          <p role="alert" className="text-xs text-red-600">
            {filesError}
          </p>
        )}
      </div>
      {progress && (
        <UploadProgressBar
          percent={progress.percent}
          label={`Uploading ${progress.name}${progress.total > 1 ? ` (${progress.index + 1} of ${progress.total})` : ""}`}
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
