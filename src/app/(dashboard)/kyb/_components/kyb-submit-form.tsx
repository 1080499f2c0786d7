"use client";

import { Send } from "lucide-react";
import { useState, type FormEvent } from "react";
import { toast } from "@/lib/toast";
import { KYB_DOCUMENT_LABEL } from "@/components/kyb-status-badge";
import { Dropzone } from "@/components/upload/dropzone";
import { UploadProgressBar } from "@/components/upload/upload-progress";
import { errorsByField, UploadError, uploadWithProgress } from "@/components/upload/xhr-upload";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormError } from "@/components/ui/field";
import type { KybDocument } from "@/lib/schemas/kyb";

type Kind = KybDocument["kind"];
const KINDS: Kind[] = ["certificateOfIncorporation", "taxCertificate"];

/** Both documents in one request: a submission (first time) or a resubmission (after a rejection). */
export function KybSubmitForm({ mode, onSubmitted }: { mode: "submit" | "resubmit"; onSubmitted: () => Promise<unknown> }) {
  const [files, setFiles] = useState<Record<Kind, File | null>>({ certificateOfIncorporation: null, taxCertificate: null });
  const [errors, setErrors] = useState<Partial<Record<Kind, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const busy = progress !== null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    const missing: Partial<Record<Kind, string>> = {};
    for (const kind of KINDS) if (!files[kind]) missing[kind] = `Add your ${KYB_DOCUMENT_LABEL[kind].toLowerCase()}`;
    setErrors(missing);
    const { certificateOfIncorporation, taxCertificate } = files;
    if (!certificateOfIncorporation || !taxCertificate) return;

    setProgress(0);
    try {
      await uploadWithProgress({
        url: `/api/upload/business/compliance/kyb/${mode}`,
        files: { certificateOfIncorporation, taxCertificate },
        onProgress: (p) => setProgress(p.percent),
      });
      // The status shows "under review" by the time the form says so.
      await onSubmitted();
      toast.success(mode === "submit" ? "Documents submitted for review" : "Documents resubmitted for review");
      setFiles({ certificateOfIncorporation: null, taxCertificate: null });
    } catch (caught) {
      const err = caught instanceof UploadError ? caught : new UploadError("Something went wrong. Try again.", 0, undefined, []);
      const fields = errorsByField(err);
      const known = { certificateOfIncorporation: fields.certificateOfIncorporation, taxCertificate: fields.taxCertificate };
      setErrors(known);
      if (!known.certificateOfIncorporation && !known.taxCertificate) setFormError(err.message);
      // Someone else may have submitted meanwhile: show the status as it is now.
      if (err.status === 409) void onSubmitted();
    } finally {
      setProgress(null);
    }
  };

  const title = mode === "submit" ? "Submit your documents" : "Resubmit corrected documents";
  return (
    <Card className="p-4 sm:p-6">
      <h2 className="text-base font-semibold text-slate-900">{title}</h2>
      <p className="mt-1 text-sm text-slate-600">
        A clear scan or photo of each, as a PDF, PNG or JPEG. Both are sent together for review.
      </p>
      <form onSubmit={submit} noValidate className="mt-4 space-y-4" aria-label={title}>
        <FormError message={formError} />
        <div className="grid gap-4 md:grid-cols-2">
          {KINDS.map((kind) => (
            <Dropzone
              key={kind}
              id={`kyb-${kind}`}
              label={KYB_DOCUMENT_LABEL[kind]}
              file={files[kind]}
              error={errors[kind]}
              disabled={busy}
              onFileChange={(file) => {
                setFiles((f) => ({ ...f, [kind]: file }));
                setErrors((e) => ({ ...e, [kind]: undefined }));
              }}
            />
          ))}
        </div>
        {busy && <UploadProgressBar percent={progress} label="Uploading KYB documents" />}
        <div className="flex justify-end">
          <Button type="submit" loading={busy} className="w-full sm:w-auto">
            {!busy && <Send className="h-4 w-4" aria-hidden />}
            {mode === "submit" ? "Submit for review" : "Resubmit for review"}
          </Button>
        </div>
      </form>
    </Card>
  );
}
