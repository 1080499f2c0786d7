"use client";

// Branding: the accent colour and the logo policyholders see on the portal and
// their certificates. The logo goes through our /api/upload route (the REST
// endpoint, as the signed-in member); the server judges its bytes and size.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ImageIcon, Trash2, Upload } from "lucide-react";
import { useRef, useState, type ChangeEvent, type FormEvent } from "react";
import { M } from "@/lib/field-messages";
import { toast } from "@/lib/toast";
import { Button } from "@/components/ui/button";
import { Card, ErrorState, Skeleton } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/field";
import { UploadProgressBar } from "@/components/upload/upload-progress";
import { errorsByField, formatBytes, UploadError, uploadWithProgress } from "@/components/upload/xhr-upload";
import type { AppRouter } from "@/server/trpc/root";
import type { inferRouterOutputs } from "@trpc/server";
import { errorInfo, useTRPC } from "@/trpc/react";
import { useMe } from "../../_components/me";

type Branding = inferRouterOutputs<AppRouter>["settings"]["get"]["branding"];

const HEX = /^#[0-9a-fA-F]{6}$/;
const DEFAULT_ACCENT = "#1d4ed8";
const LOGO_MAX_BYTES = 1024 * 1024;
const LOGO_TYPES = ["image/png", "image/jpeg"];

/** White or near-black text, whichever reads better on the colour. */
function textOn(hex: string) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const lin = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const luminance = 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
  return luminance > 0.179 ? "#0f172a" : "#ffffff";
}

export function BrandingCard() {
  const trpc = useTRPC();
  const settings = useQuery(trpc.settings.get.queryOptions());

  return (
    <Card className="p-6" role="region" aria-label="Branding">
      <h2 className="text-base font-semibold">Branding</h2>
      <p className="mb-5 mt-1 text-sm text-slate-600">
        Your logo and colour on the policyholder portal and on certificates of insurance.
      </p>
      {settings.isPending ? (
        <div className="space-y-3">
          <Skeleton className="h-16 w-40" />
          <Skeleton className="h-10 w-64" />
        </div>
      ) : settings.isError ? (
        <ErrorState message={errorInfo(settings.error).message} onRetry={() => settings.refetch()} />
      ) : (
        <div className="grid gap-8 md:grid-cols-2">
          <LogoSection logo={settings.data.branding.logo} />
          {/* Saved (or changed elsewhere): the form starts again from what the server holds. */}
          <ColorForm key={settings.data.branding.accentColor ?? ""} saved={settings.data.branding.accentColor} />
        </div>
      )}
    </Card>
  );
}

function useRefresh() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.settings.get.queryKey() });
}

function LogoSection({ logo }: { logo: Branding["logo"] }) {
  const trpc = useTRPC();
  const { can } = useMe();
  const refresh = useRefresh();
  const removeLogo = useMutation(trpc.settings.removeLogo.mutationOptions());
  const [error, setError] = useState<string | undefined>();
  const [progress, setProgress] = useState<number | null>(null);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const pick = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = "";
    if (!file) return;
    // Answered here only to be sooner: the server judges the bytes and the size.
    if (!LOGO_TYPES.includes(file.type)) return setError(`“${file.name}” is not a PNG or JPEG image.`);
    if (file.size > LOGO_MAX_BYTES)
      return setError(`“${file.name}” is ${formatBytes(file.size)}; a logo can be ${formatBytes(LOGO_MAX_BYTES)} at most.`);
    setError(undefined);
    setProgress(0);
    try {
      await uploadWithProgress({
        url: "/api/upload/business/settings/logo",
        files: { file },
        onProgress: (p) => setProgress(p.percent),
      });
      await refresh();
      toast.success("Logo saved");
    } catch (caught) {
      const err = caught instanceof UploadError ? caught : new UploadError("Something went wrong. Try again.", 0, undefined, []);
      setError(errorsByField(err).file ?? err.message);
    } finally {
      setProgress(null);
    }
  };

  const remove = async () => {
    try {
      await removeLogo.mutateAsync();
      await refresh();
      toast.success("Logo removed");
    } catch (err) {
      toast.error(errorInfo(err).message);
    } finally {
      setConfirmRemove(false);
    }
  };

  return (
    <section aria-labelledby="logo-heading" className="space-y-3">
      <h3 id="logo-heading" className="text-sm font-medium text-slate-700">
        Logo
      </h3>
      <div className="flex h-24 w-full max-w-xs items-center justify-center rounded-md border border-dashed border-slate-300 bg-slate-50 p-2">
        {logo ? (
          // eslint-disable-next-line @next/next/no-img-element -- served by /api/files with the member's session
          <img
            src={logo.url.replace(/^https?:\/\/[^/]+/, "")}
            alt="Your logo"
            className="max-h-20 max-w-full object-contain"
            data-testid="logo-preview"
          />
        ) : (
          <span className="flex items-center gap-2 text-sm text-slate-600">
            <ImageIcon className="h-4 w-4" aria-hidden /> No logo yet
          </span>
        )}
      </div>
      {logo && (
        <p className="break-all text-xs text-slate-600">
          {logo.fileName} · {formatBytes(logo.size)}
        </p>
      )}
      {error && (
        <p id="logo-error" role="alert" className="text-xs text-red-600">
          {error}
        </p>
      )}
      {progress !== null && <UploadProgressBar percent={progress} label="Uploading the logo" />}
      {can.admin && (
        <div className="flex flex-wrap gap-2">
          <input
            ref={fileInput}
            type="file"
            accept="image/png,image/jpeg"
            className="sr-only"
            tabIndex={-1}
            aria-label="Logo file (PNG or JPEG, 1 MB at most)"
            aria-describedby={error ? "logo-error" : undefined}
            onChange={pick}
          />
          <Button type="button" variant="secondary" loading={progress !== null} onClick={() => fileInput.current?.click()}>
            {progress === null && <Upload className="h-4 w-4" aria-hidden />}
            {logo ? "Replace logo" : "Upload logo"}
          </Button>
          {logo && (
            <Button type="button" variant="ghost" onClick={() => setConfirmRemove(true)}>
              <Trash2 className="h-4 w-4" aria-hidden /> Remove logo
            </Button>
          )}
        </div>
      )}
      <p className="text-xs text-slate-600">PNG or JPEG, 1 MB at most. A wide logo on a transparent background looks best.</p>
      <ConfirmDialog
        open={confirmRemove}
        onOpenChange={setConfirmRemove}
        title="Remove the logo?"
        description="The portal and certificates then show your business name only. The file is deleted; upload it again to bring it back."
        confirmLabel="Remove logo"
        loading={removeLogo.isPending}
        onConfirm={() => void remove()}
      />
    </section>
  );
}

function ColorForm({ saved }: { saved: string | null }) {
  const trpc = useTRPC();
  const { can } = useMe();
  const refresh = useRefresh();
  const update = useMutation(trpc.settings.update.mutationOptions());
  const [color, setColor] = useState(saved ?? "");
  const [error, setError] = useState<string | undefined>();

  const save = async (accentColor: string | null) => {
    if (accentColor !== null && !HEX.test(accentColor)) return setError(M.hexColor);
    setError(undefined);
    try {
      await update.mutateAsync({ branding: { accentColor } });
      toast.success(accentColor ? "Accent colour saved" : "Accent colour reset to Coverdesk's");
      await refresh();
    } catch (err) {
      const info = errorInfo(err);
      const field = info.fieldErrors.find((f) => f.path.startsWith("branding"));
      if (field) setError(field.message);
      else toast.error(info.message);
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const value = color.trim();
    void save(value === "" ? null : value);
  };

  const change = (value: string) => {
    setColor(value);
    setError(undefined);
  };

  const preview = HEX.test(color.trim()) ? color.trim().toLowerCase() : (saved ?? DEFAULT_ACCENT);
  const dirty = color.trim().toLowerCase() !== (saved ?? "");

  return (
    <form onSubmit={submit} noValidate className="space-y-3">
      <Field
        id="accent-color"
        label="Accent colour"
        hint="# and 6 hex digits, like #1d4ed8. Leave it empty for Coverdesk's blue."
        error={error}
      >
        <div className="flex items-center gap-2">
          <input
            type="color"
            aria-label="Pick the accent colour"
            className="h-10 w-12 shrink-0 cursor-pointer rounded-md border border-slate-300 bg-white p-1"
            value={preview}
            disabled={!can.admin}
            onChange={(e) => change(e.target.value)}
          />
          <Input
            id="accent-color"
            className="sm:w-40"
            placeholder={DEFAULT_ACCENT}
            value={color}
            maxLength={7}
            disabled={!can.admin}
            aria-invalid={!!error}
            aria-describedby={error ? "accent-color-error" : undefined}
            onChange={(e) => change(e.target.value)}
          />
        </div>
      </Field>
      <div className="flex items-center gap-3">
        <span className="text-xs text-slate-600">Preview</span>
        <span
          data-testid="accent-preview"
          className="inline-flex h-9 items-center rounded-md px-4 text-sm font-medium"
          style={{ backgroundColor: preview, color: textOn(preview) }}
        >
          Renew cover
        </span>
      </div>
      {can.admin && (
        <div className="flex flex-wrap justify-end gap-2">
          {saved && (
            <Button type="button" variant="ghost" disabled={update.isPending} onClick={() => void save(null)}>
              Use Coverdesk&apos;s colour
            </Button>
          )}
          <Button type="submit" loading={update.isPending} disabled={!dirty}>
            Save colour
          </Button>
        </div>
      )}
    </form>
  );
}
