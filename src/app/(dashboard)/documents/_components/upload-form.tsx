"use client";

import { Upload } from "lucide-react";
import { useState, type FormEvent } from "react";
import { toast } from "@/lib/toast";
import { Dropzone } from "@/components/upload/dropzone";
import { UploadProgressBar } from "@/components/upload/upload-progress";
import { errorsByField, UploadError, uploadWithProgress } from "@/components/upload/xhr-upload";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field, FormError, Input } from "@/components/ui/field";

export type DocumentKind = "certificate" | "receiptSample";

const KINDS = {
  certificate: {
    url: "/api/upload/business/documents/certificates",
    title: "Upload a certificate",
    submit: "Upload certificate",
    namePlaceholder: "NAICOM operating licence 2026",
  },
  receiptSample: {
    url: "/api/upload/business/documents/receipt-samples",
    title: "Upload a receipt sample",
    submit: "Upload receipt sample",
    namePlaceholder: "Standard receipt",
  },
} as const;

const TYPE_SUGGESTIONS = ["Insurance licence", "Operating permit", "Tax clearance", "Broker licence", "Agent licence"];

type Errors = Partial<Record<"file" | "name" | "type", string>>;

// A file's name without its extension: a sensible default for the document's name.
const baseName = (fileName: string) =>
  fileName
    .replace(/\.[^.]+$/, "")
    .replace(/[_-]+/g, " ")
    .trim()
    .slice(0, 120);

export function DocumentUploadForm({ kind, onUploaded }: { kind: DocumentKind; onUploaded: () => Promise<unknown> }) {
  const config = KINDS[kind];
  const withType = kind === "certificate";
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState("");
  const [type, setType] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const busy = progress !== null;

  const pickFile = (picked: File | null) => {
    setFile(picked);
    setErrors((e) => ({ ...e, file: undefined }));
    if (picked && !name.trim()) setName(baseName(picked.name));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    // Only what the user plainly forgot; the server judges the rest.
    const missing: Errors = {};
    if (!file) missing.file = "Choose a file to upload";
    if (!name.trim()) missing.name = "Enter a name";
    if (withType && !type.trim()) missing.type = "Enter the type, e.g. Insurance licence";
    setErrors(missing);
    if (!file || Object.keys(missing).length) return;

    setProgress(0);
    try {
      await uploadWithProgress({
        url: config.url,
        fields: withType ? { name, type } : { name },
        files: { file },
        onProgress: (p) => setProgress(p.percent),
      });
      // The list shows the new document by the time the form says so.
      await onUploaded();
      toast.success(`“${name.trim()}” uploaded`);
      setFile(null);
      setName("");
      setType("");
      setErrors({});
    } catch (caught) {
      const err = caught instanceof UploadError ? caught : new UploadError("Something went wrong. Try again.", 0, undefined, []);
      const fields = errorsByField(err);
      const known: Errors = { file: fields.file, name: fields.name, type: fields.type };
      // A size or type refusal is about the file even when it names no field.
      if (!known.file && (err.status === 413 || err.status === 415)) known.file = err.message;
      setErrors(known);
      if (!known.file && !known.name && !known.type) setFormError(err.message);
    } finally {
      setProgress(null);
    }
  };

  return (
    <Card className="p-4 sm:p-6">
      <h2 className="text-base font-semibold text-slate-900">{config.title}</h2>
      <form onSubmit={submit} noValidate className="mt-4 space-y-4" aria-label={config.title}>
        <FormError message={formError} />
        <div className="grid gap-4 md:grid-cols-2">
          <Dropzone id={`${kind}-file`} label="File" file={file} onFileChange={pickFile} error={errors.file} disabled={busy} />
          <div className="space-y-4">
            <Field id={`${kind}-name`} label="Name" error={errors.name}>
              <Input
                id={`${kind}-name`}
                value={name}
                maxLength={120}
                placeholder={config.namePlaceholder}
                disabled={busy}
                aria-invalid={!!errors.name}
                aria-describedby={errors.name ? `${kind}-name-error` : undefined}
                onChange={(e) => setName(e.target.value)}
              />
            </Field>
            {withType && (
              <Field id={`${kind}-type`} label="Type" error={errors.type} hint="Pick a suggestion or type your own.">
                <Input
                  id={`${kind}-type`}
                  value={type}
                  maxLength={60}
                  list={`${kind}-type-suggestions`}
                  placeholder="Insurance licence"
                  disabled={busy}
                  aria-invalid={!!errors.type}
                  aria-describedby={errors.type ? `${kind}-type-error` : undefined}
                  onChange={(e) => setType(e.target.value)}
                />
                <datalist id={`${kind}-type-suggestions`}>
                  {TYPE_SUGGESTIONS.map((s) => (
                    <option key={s} value={s} />
                  ))}
                </datalist>
              </Field>
            )}
          </div>
        </div>
        {busy && <UploadProgressBar percent={progress} label={`Uploading ${file?.name ?? "file"}`} />}
        <div className="flex justify-end">
          <Button type="submit" loading={busy} className="w-full sm:w-auto">
            {!busy && <Upload className="h-4 w-4" aria-hidden />}
            {config.submit}
          </Button>
        </div>
      </form>
    </Card>
  );
}
