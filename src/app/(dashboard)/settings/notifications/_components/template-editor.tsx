"use client";

// One notice's words: email subject, email text and text message, with the
// placeholders to insert at the cursor and a live preview rendered here with
// the same code and sample data as the server (src/lib/notice-templates.ts,
// loaded on open with the SMS segment counter: mustache and
// sms-segments-calculator stay out of every page's first load). Problems are
// shown as you type; the server still judges on Save and its 422 errors land
// under their fields.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, MessageSquare, RotateCcw, Send } from "lucide-react";
import { useDeferredValue, useEffect, useLayoutEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Badge, Skeleton } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/dialog";
import { Input, Textarea } from "@/components/ui/field";
import { cn } from "@/lib/cn";
import type { NoticeTemplate, RenderedNotice, TemplateProblem } from "@/lib/notice-templates";
import type { NotificationTemplate } from "@/lib/schemas/notifications";
import type { SmsSegments } from "@/lib/sms";
import { toast } from "@/lib/toast";
import { errorInfo, useTRPC } from "@/trpc/react";

type FieldName = keyof NoticeTemplate;
const FIELDS: { name: FieldName; label: string }[] = [
  { name: "emailSubject", label: "Email subject" },
  { name: "emailBody", label: "Email text" },
  { name: "smsBody", label: "Text message" },
];
const labelOf = (name: FieldName) => FIELDS.find((f) => f.name === name)!.label;
const idOf = (name: FieldName) => `template-${name}`;
const MAX_SEGMENTS = 2;

// ---------- the shared template code, loaded once when an editor first opens ----------

interface NoticeLib {
  previewNotice: (kind: NotificationTemplate["kind"], template: NoticeTemplate) => RenderedNotice;
  checkTemplate: (kind: NotificationTemplate["kind"], template: NoticeTemplate) => TemplateProblem[];
  smsSegments: (text: string) => SmsSegments;
}
let loading: Promise<NoticeLib> | undefined;
const loadNoticeLib = () =>
  (loading ??= Promise.all([import("@/lib/notice-templates"), import("@/lib/sms")]).then(
    ([t, s]) => ({ previewNotice: t.previewNotice, checkTemplate: t.checkTemplate, smsSegments: s.smsSegments }),
    (err: unknown) => {
      loading = undefined; // a failed chunk load is tried again
      throw err;
    },
  ));

function useNoticeLib() {
  const [lib, setLib] = useState<NoticeLib | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    loadNoticeLib().then(
      (l) => live && setLib(l),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [attempt]);
  return {
    lib,
    failed,
    retry: () => {
      setFailed(false);
      setAttempt((n) => n + 1);
    },
  };
}

const wordsOf = (t: NoticeTemplate): NoticeTemplate => ({ emailSubject: t.emailSubject, emailBody: t.emailBody, smsBody: t.smsBody });
const sameWords = (a: NoticeTemplate, b: NoticeTemplate) =>
  a.emailSubject === b.emailSubject && a.emailBody === b.emailBody && a.smsBody === b.smsBody;
/** "emailSubject", "input.emailSubject", "body.emailSubject" → the field, if it is one. */
const fieldOfPath = (path: string): FieldName | null => {
  const last = path.split(".").pop() ?? "";
  return FIELDS.some((f) => f.name === last) ? (last as FieldName) : null;
};

export function TemplateEditor({
  template,
  canEdit,
  onClose,
}: {
  template: NotificationTemplate;
  canEdit: boolean;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { lib, failed, retry } = useNoticeLib();
  const [words, setWords] = useState<NoticeTemplate>(() => wordsOf(template));
  const [serverErrors, setServerErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [target, setTarget] = useState<FieldName>("emailBody");
  const [confirmReset, setConfirmReset] = useState(false);
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const caret = useRef<{ field: FieldName; at: number } | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const deferred = useDeferredValue(words);
  const dirty = !sameWords(words, template);

  useEffect(() => heading.current?.focus(), []);

  // A placeholder was inserted: the cursor goes after it, in its field.
  useLayoutEffect(() => {
    const at = caret.current;
    if (!at) return;
    caret.current = null;
    const el = document.getElementById(idOf(at.field)) as HTMLInputElement | HTMLTextAreaElement | null;
    el?.focus();
    el?.setSelectionRange(at.at, at.at);
  }, [words]);

  const listKey = trpc.notificationTemplates.list.queryKey();
  const store = (saved: NotificationTemplate) =>
    queryClient.setQueryData(listKey, (old) => (old ? { data: old.data.map((t) => (t.kind === saved.kind ? saved : t)) } : old));

  const onFailure = (err: unknown) => {
    const info = errorInfo(err);
    const found: Partial<Record<FieldName, string>> = {};
    for (const f of info.fieldErrors) {
      const field = fieldOfPath(f.path);
      if (field) found[field] ??= f.message;
    }
    setServerErrors(found);
    if (Object.keys(found).length === 0) setFormError(info.message);
    else document.getElementById(idOf(FIELDS.find((f) => found[f.name])!.name))?.focus();
  };

  const update = useMutation(
    trpc.notificationTemplates.update.mutationOptions({
      onSuccess: (saved) => {
        store(saved);
        toast.success(`${saved.label}: your words are saved`);
      },
      onError: onFailure,
    }),
  );
  const test = useMutation(
    trpc.notificationTemplates.test.mutationOptions({
      onSuccess: ({ email, phone }) =>
        toast.success(
          phone
            ? `Sample sent to ${email} and by text message to ${phone}`
            : `Sample sent to ${email}. Verify your phone above to get the text message too.`,
        ),
      onError: onFailure,
    }),
  );
  const reset = useMutation(
    trpc.notificationTemplates.reset.mutationOptions({
      onSuccess: (saved) => {
        store(saved);
        setWords(wordsOf(saved));
        setServerErrors({});
        setConfirmReset(false);
        toast.success(`${saved.label}: back to the default words`);
      },
      onError: (err) => {
        setConfirmReset(false);
        setFormError(errorInfo(err).message);
      },
    }),
  );

  const change = (field: FieldName, value: string) => {
    setWords((w) => ({ ...w, [field]: value }));
    setServerErrors(({ [field]: _gone, ...rest }) => rest);
    setFormError(null);
  };

  const insert = (name: string) => {
    const field = target;
    const token = `{{${name}}}`;
    const el = document.getElementById(idOf(field)) as HTMLInputElement | HTMLTextAreaElement | null;
    const value = words[field];
    const start = el?.selectionStart ?? value.length;
    const end = el?.selectionEnd ?? value.length;
    caret.current = { field, at: start + token.length };
    change(field, `${value.slice(0, start)}${token}${value.slice(end)}`);
  };

  const save = (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    // The server judges: what the check below shows as you type, it says again (422) under the same field.
    update.mutate({ kind: template.kind, ...words });
  };

  // The check and the preview, on the words as they settle (typing stays smooth).
  const problems: Partial<Record<FieldName, string>> = {};
  for (const p of lib?.checkTemplate(template.kind, deferred) ?? []) problems[p.path] ??= p.message;
  let preview: RenderedNotice | null = null;
  if (lib) {
    try {
      preview = lib.previewNotice(template.kind, deferred);
    } catch {
      preview = null; // unbalanced braces: the check says where
    }
  }
  const segments = lib && preview ? lib.smsSegments(preview.sms) : null;
  const busy = update.isPending || test.isPending || reset.isPending;

  return (
    <div className="p-4 sm:p-6" data-testid="template-editor">
      <button
        type="button"
        onClick={() => (dirty && canEdit ? setConfirmDiscard(true) : onClose())}
        className="mb-3 inline-flex items-center gap-1 text-sm text-slate-600 hover:text-slate-900"
      >
        <ArrowLeft className="h-4 w-4" aria-hidden /> All messages
      </button>
      <div className="flex flex-wrap items-center gap-2">
        <h3 ref={heading} tabIndex={-1} className="text-lg font-semibold text-slate-900 focus:outline-none">
          {template.label}
        </h3>
        {template.customized ? <Badge tone="blue">Customized</Badge> : <Badge>Default</Badge>}
        {!canEdit && <Badge tone="amber">Read-only</Badge>}
      </div>
      <p className="mt-1 text-sm text-slate-600">Sent when: {template.when}</p>
      {/* On a phone the preview comes after the fields. */}
      <a href="#template-preview" className="mt-1 inline-block text-sm font-medium text-brand-700 underline lg:hidden">
        See the preview
      </a>

      <div className="mt-5 grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,20rem)]">
        <form onSubmit={save} noValidate className="min-w-0 space-y-5" aria-label={`${template.label}: words`}>
          {canEdit && (
            <Placeholders
              placeholders={template.placeholders}
              link={template.link}
              target={labelOf(target)}
              onInsert={insert}
            />
          )}
          <EditorField
            name="emailSubject"
            serverError={serverErrors.emailSubject}
            problem={problems.emailSubject}
            hint="The email's subject line."
          >
            {(props) => (
              <Input
                {...props}
                value={words.emailSubject}
                readOnly={!canEdit}
                onFocus={() => setTarget("emailSubject")}
                onChange={(e) => change("emailSubject", e.target.value)}
              />
            )}
          </EditorField>
          <EditorField
            name="emailBody"
            serverError={serverErrors.emailBody}
            problem={problems.emailBody}
            hint="Plain text: a blank line starts a new paragraph."
          >
            {(props) => (
              <Textarea
                {...props}
                rows={7}
                value={words.emailBody}
                readOnly={!canEdit}
                onFocus={() => setTarget("emailBody")}
                onChange={(e) => change("emailBody", e.target.value)}
              />
            )}
          </EditorField>
          <EditorField
            name="smsBody"
            serverError={serverErrors.smsBody}
            problem={problems.smsBody}
            hint={`Must include {{${template.link}}}. Sent when Send SMS alerts is on and the policyholder gave a phone.`}
            extra={<SegmentCounter segments={segments} />}
          >
            {(props) => (
              <Textarea
                {...props}
                rows={3}
                value={words.smsBody}
                readOnly={!canEdit}
                onFocus={() => setTarget("smsBody")}
                onChange={(e) => change("smsBody", e.target.value)}
              />
            )}
          </EditorField>
          {formError && (
            <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
              {formError}
            </p>
          )}
          {canEdit ? (
            <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
              <Button type="submit" loading={update.isPending} disabled={!dirty || busy}>
                Save
              </Button>
              <Button
                type="button"
                variant="secondary"
                loading={test.isPending}
                disabled={busy}
                onClick={() => {
                  setFormError(null);
                  test.mutate({ kind: template.kind, ...words });
                }}
              >
                <Send className="h-4 w-4" aria-hidden /> Send me a test
              </Button>
              {template.customized && (
                <Button type="button" variant="ghost" disabled={busy} onClick={() => setConfirmReset(true)}>
                  <RotateCcw className="h-4 w-4" aria-hidden /> Restore default
                </Button>
              )}
            </div>
          ) : (
            <p className="text-sm text-slate-600">
              You see these words read-only: only owners and admins change them.
            </p>
          )}
        </form>

        <Preview lib={lib} failed={failed} retry={retry} preview={preview} />
      </div>

      <ConfirmDialog
        open={confirmReset}
        onOpenChange={setConfirmReset}
        title="Restore the default words?"
        description={`Your words for “${template.label}” are deleted: policyholders get the default email and text message again.`}
        confirmLabel="Restore default"
        loading={reset.isPending}
        onConfirm={() => reset.mutate({ kind: template.kind })}
      />
      <ConfirmDialog
        open={confirmDiscard}
        onOpenChange={setConfirmDiscard}
        title="Discard your changes?"
        description={`What you changed in “${template.label}” since it was last saved is lost.`}
        confirmLabel="Discard changes"
        cancelLabel="Keep editing"
        onConfirm={() => {
          setConfirmDiscard(false);
          onClose();
        }}
      />
    </div>
  );
}

/** A field of the editor: its label, control, hint and error — the server's (announced) or the check's as you type. */
function EditorField({
  name,
  hint,
  serverError,
  problem,
  extra,
  children,
}: {
  name: FieldName;
  hint: ReactNode;
  serverError?: string;
  problem?: string;
  extra?: ReactNode;
  children: (props: { id: string; "aria-invalid": boolean; "aria-describedby": string }) => ReactNode;
}) {
  const id = idOf(name);
  const error = serverError ?? problem;
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {labelOf(name)}
      </label>
      {children({ id, "aria-invalid": !!error, "aria-describedby": `${id}-hint${extra ? ` ${id}-extra` : ""}${error ? ` ${id}-error` : ""}` })}
      {extra && <div id={`${id}-extra`}>{extra}</div>}
      <p id={`${id}-hint`} className="text-xs text-slate-500">
        {hint}
      </p>
      {error && (
        // The server's refusal is announced; the check as you type is not (it would speak at every key).
        <p id={`${id}-error`} role={serverError ? "alert" : undefined} className="text-xs text-red-600" data-testid={`${name}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

function Placeholders({
  placeholders,
  link,
  target,
  onInsert,
}: {
  placeholders: NotificationTemplate["placeholders"];
  link: string;
  target: string;
  onInsert: (name: string) => void;
}) {
  return (
    <div className="rounded-md border border-slate-200 bg-slate-50 p-3">
      <p className="text-sm font-medium text-slate-700" id="placeholders-label">
        Placeholders
      </p>
      <p className="mt-0.5 text-xs text-slate-600">
        Click one to insert it at the cursor in <strong data-testid="placeholder-target">{target}</strong>. Each is replaced with
        the policyholder&apos;s own details when the message goes.
      </p>
      <ul className="mt-2 flex flex-wrap gap-1.5" aria-labelledby="placeholders-label">
        {placeholders.map((p) => (
          <li key={p.name}>
            <button
              type="button"
              title={p.description}
              aria-label={`Insert {{${p.name}}}: ${p.description}`}
              // The field keeps its focus and cursor: the placeholder goes where the cursor is.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => onInsert(p.name)}
              className={cn(
                "rounded-md border bg-white px-2 py-1 font-mono text-xs text-slate-800 hover:border-brand-500 hover:text-brand-700",
                p.name === link ? "border-brand-300" : "border-slate-300",
              )}
            >
              {`{{${p.name}}}`}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

function SegmentCounter({ segments }: { segments: SmsSegments | null }) {
  if (!segments) return <p className="text-xs text-slate-500">Counting…</p>;
  const over = segments.segments > MAX_SEGMENTS;
  return (
    <p className={cn("text-xs tabular-nums", over ? "text-red-700" : "text-slate-700")} data-testid="sms-counter">
      {segments.characters} characters · {segments.encoding} · {segments.segments} of {MAX_SEGMENTS} segments
      <span className="text-slate-500">
        {" "}
        (the sample as sent
        {segments.encoding === "UCS-2" ? "; an accent or emoji makes it UCS-2, 70 characters a segment instead of 160" : ""})
      </span>
    </p>
  );
}

function Preview({
  lib,
  failed,
  retry,
  preview,
}: {
  lib: NoticeLib | null;
  failed: boolean;
  retry: () => void;
  preview: RenderedNotice | null;
}) {
  return (
    <section
      id="template-preview"
      aria-labelledby="template-preview-heading"
      className="min-w-0 scroll-mt-20 lg:sticky lg:top-6 lg:self-start"
    >
      <h4 id="template-preview-heading" className="text-sm font-medium text-slate-700">
        Preview with sample details
      </h4>
      {failed ? (
        <div role="alert" className="mt-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700">
          The preview could not load.{" "}
          <button type="button" onClick={retry} className="font-medium underline">
            Try again
          </button>
        </div>
      ) : !lib ? (
        <div className="mt-2 space-y-2" role="status" aria-label="Loading the preview">
          <Skeleton className="h-24 w-full" />
          <Skeleton className="h-12 w-3/4" />
        </div>
      ) : !preview ? (
        <p className="mt-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          The preview shows again once the braces of the placeholders are fixed.
        </p>
      ) : (
        <div className="mt-2 space-y-4" data-testid="template-preview">
          <div className="overflow-hidden rounded-md border border-slate-200">
            <div className="border-b border-slate-200 bg-slate-50 px-3 py-2">
              <p className="text-xs text-slate-600">Email subject</p>
              <p className="font-medium text-slate-900 [overflow-wrap:anywhere]" data-testid="preview-subject">
                {preview.subject}
              </p>
            </div>
            <div className="space-y-2 px-3 py-3 text-sm text-slate-800 [overflow-wrap:anywhere]" data-testid="preview-body">
              {preview.paragraphs.map((p, i) => (
                <p key={i} className="whitespace-pre-line">
                  {p}
                </p>
              ))}
              <p className="text-xs italic text-slate-500">+ the details, a button with the link, and your footer</p>
            </div>
          </div>
          <div>
            <p className="flex items-center gap-1 text-xs text-slate-600">
              <MessageSquare className="h-3.5 w-3.5" aria-hidden /> Text message
            </p>
            <p
              className="mt-1 max-w-[18rem] rounded-2xl rounded-bl-sm bg-slate-100 px-3 py-2 text-sm text-slate-900 [overflow-wrap:anywhere]"
              data-testid="preview-sms"
            >
              {preview.sms}
            </p>
          </div>
        </div>
      )}
    </section>
  );
}
