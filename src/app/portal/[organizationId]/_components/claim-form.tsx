"use client";

// A policyholder files a claim on one of their coverages: what happened, the
// amount, and up to 5 photos or documents (PDF, PNG, JPEG; the server judges
// each by its bytes and size, as for every upload).
import { Paperclip, X } from "lucide-react";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Field, FormError, Input, Textarea } from "@/components/ui/field";
import { NativeSelect } from "@/components/ui/select";
import { UploadProgressBar } from "@/components/upload/upload-progress";
import { formatBytes, MAX_UPLOAD_BYTES, uploadWithProgress, type UploadError } from "@/components/upload/xhr-upload";
import { CLAIM_TYPES } from "@/lib/enums";
import type { ClaimDetailsValues } from "@/lib/claim-values";
import { lazyResolver } from "@/lib/lazy-resolver";
import type { z } from "@/lib/messages";
import { portalButton } from "./api";

const MAX_FILES = 5;
const TYPES = ["application/pdf", "image/png", "image/jpeg"];

type Values = z.infer<typeof ClaimDetailsValues>;
const FIELDS = ["type", "amount", "description"] as const;
const resolver = lazyResolver<Values, unknown, Values>(() => import("./schemas").then((m) => m.claim));

export function PortalClaimForm({
  organizationId,
  coverageId,
  currency,
}: {
  organizationId: string;
  coverageId: string;
  currency: string;
}) {
  const router = useRouter();
  const input = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [filesError, setFilesError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const form = useForm<Values>({ resolver, defaultValues: { type: "other", amount: "", description: "" } });
  const { errors, isSubmitting } = form.formState;

  const addFiles = (list: FileList | null) => {
    setFilesError(null);
    const picked = [...(list ?? [])];
    const refused = picked.find((f) => !TYPES.includes(f.type) || f.size > MAX_UPLOAD_BYTES);
    if (refused) {
      setFilesError(`${refused.name}: attach PDF, PNG or JPEG files of at most ${formatBytes(MAX_UPLOAD_BYTES)}`);
    }
    const next = [...files, ...picked.filter((f) => f !== refused && TYPES.includes(f.type) && f.size <= MAX_UPLOAD_BYTES)];
    if (next.length > MAX_FILES) setFilesError(`Attach at most ${MAX_FILES} files`);
    setFiles(next.slice(0, MAX_FILES));
    if (input.current) input.current.value = "";
  };

  const onSubmit = form.handleSubmit(async (v) => {
    setFormError(null);
    setProgress(files.length ? 0 : null);
    try {
      const claim = await uploadWithProgress<{ id: string }>({
        url: `/api/portal/${organizationId}/claims`,
        fields: { coverageId, type: v.type, amount: v.amount.trim(), description: v.description },
        files: Object.fromEntries(files.map((f, i) => [`file${i + 1}`, f])),
        onProgress: (p) => setProgress(p.percent),
      });
      router.push(`/portal/${organizationId}/claims/${claim.id}?filed=1`);
    } catch (err) {
      const e = err as UploadError;
      setProgress(null);
      let placed = false;
      for (const f of e.fieldErrors ?? []) {
        const key = f.path.split(".")[0] ?? "";
        if ((FIELDS as readonly string[]).includes(key)) {
          form.setError(key as keyof Values, { message: f.message });
          placed = true;
        } else if (key.startsWith("file")) {
          setFilesError(f.message);
          placed = true;
        }
      }
      if (!placed) setFormError(e.message);
    }
  });

  return (
    <form onSubmit={onSubmit} onFocus={resolver.preload} noValidate className="space-y-4" data-testid="portal-claim-form">
      <FormError message={formError} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="portal-claim-type" label="What kind of loss" error={errors.type?.message}>
          <NativeSelect id="portal-claim-type" aria-invalid={!!errors.type} {...form.register("type")}>
            {CLAIM_TYPES.map((t) => (
              <option key={t} value={t}>
                {t[0]!.toUpperCase() + t.slice(1)}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id="portal-claim-amount" label={`Amount claimed (${currency})`} error={errors.amount?.message}>
          <Input
            id="portal-claim-amount"
            inputMode="decimal"
            placeholder="0.00"
            aria-invalid={!!errors.amount}
            {...form.register("amount")}
          />
        </Field>
      </div>
      <Field id="portal-claim-description" label="What happened" error={errors.description?.message}>
        <Textarea
          id="portal-claim-description"
          rows={4}
          maxLength={2000}
          aria-invalid={!!errors.description}
          {...form.register("description")}
        />
      </Field>
      <div className="space-y-2">
        <label htmlFor="portal-claim-files" className="block text-sm font-medium text-slate-700">
          Photos and documents <span className="font-normal text-slate-600">(up to {MAX_FILES}: PDF, PNG or JPEG)</span>
        </label>
        <input
          ref={input}
          id="portal-claim-files"
          type="file"
          multiple
          accept=".pdf,.png,.jpg,.jpeg,application/pdf,image/png,image/jpeg"
          disabled={files.length >= MAX_FILES || isSubmitting}
          onChange={(e) => addFiles(e.target.files)}
          aria-invalid={!!filesError}
          aria-describedby={filesError ? "portal-claim-files-error" : undefined}
          className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-2 file:text-sm file:font-medium"
        />
        {filesError && (
          <p id="portal-claim-files-error" role="alert" className="text-xs text-red-600">
            {filesError}
          </p>
        )}
        {files.length > 0 && (
          <ul className="divide-y divide-slate-200 rounded-md border border-slate-200 bg-white" aria-label="Files to attach">
            {files.map((f, i) => (
              <li key={`${f.name}-${i}`} className="flex items-center gap-2 px-3 py-2 text-sm">
                <Paperclip className="h-4 w-4 shrink-0 text-slate-500" aria-hidden />
                <span className="min-w-0 flex-1 [overflow-wrap:anywhere]">{f.name}</span>
                <span className="shrink-0 text-xs text-slate-600">{formatBytes(f.size)}</span>
                <button
                  type="button"
                  onClick={() => setFiles(files.filter((_, j) => j !== i))}
                  className="rounded p-1 text-slate-600 hover:bg-slate-100"
                  aria-label={`Remove ${f.name}`}
                  disabled={isSubmitting}
                >
                  <X className="h-4 w-4" aria-hidden />
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      {progress !== null && isSubmitting && <UploadProgressBar percent={progress} label="Sending the claim" />}
      <Button type="submit" loading={isSubmitting} className={portalButton}>
        Submit claim
      </Button>
    </form>
  );
}
