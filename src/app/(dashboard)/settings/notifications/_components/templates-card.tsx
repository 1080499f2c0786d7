"use client";

// "Messages to policyholders": every notice the business words itself (label,
// when it goes, customized or default). Choosing one opens its editor in place
// of the list; the editor's code — and mustache with the SMS counter, which it
// loads itself — comes when first wanted, not with the page.
import { useQuery } from "@tanstack/react-query";
import { ChevronRight, Mail } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { lazyComponent } from "@/components/lazy-component";
import { Badge, Card, EmptyState, ErrorState, Skeleton } from "@/components/ui/card";
import type { NoticeKind } from "@/lib/notice-templates";
import { errorInfo, useTRPC } from "@/trpc/react";
import { useMe } from "../../../_components/me";

const editorLoading = (
  <div className="space-y-4 p-4 sm:p-6" role="status" aria-label="Loading the editor">
    <Skeleton className="h-6 w-48" />
    <Skeleton className="h-10 w-full" />
    <Skeleton className="h-32 w-full" />
    <Skeleton className="h-20 w-full" />
  </div>
);
const TemplateEditor = lazyComponent(() => import("./template-editor").then((m) => m.TemplateEditor), editorLoading);

export function TemplatesCard() {
  const trpc = useTRPC();
  const { can } = useMe();
  const list = useQuery(trpc.notificationTemplates.list.queryOptions());
  const [selected, setSelected] = useState<NoticeKind | null>(null);
  const [returnTo, setReturnTo] = useState<NoticeKind | null>(null);
  const listRef = useRef<HTMLUListElement>(null);

  // Back from the editor: focus returns to the notice that was open.
  useEffect(() => {
    if (selected !== null || returnTo === null) return;
    listRef.current?.querySelector<HTMLButtonElement>(`[data-kind="${returnTo}"]`)?.focus();
  }, [selected, returnTo]);

  const template = selected ? list.data?.data.find((t) => t.kind === selected) : undefined;

  return (
    <Card role="region" aria-label="Messages to policyholders">
      <div className="border-b border-slate-200 p-4 sm:px-6">
        <h2 className="flex items-center gap-2 text-base font-semibold">
          <Mail className="h-4 w-4 text-slate-500" aria-hidden /> Messages to policyholders
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          What your policyholders receive by email, and by text message when Send SMS alerts is on and they gave a phone. Write
          them in your own words with placeholders such as <code className="text-xs">{"{{customerName}}"}</code>; the email&apos;s
          details, its button and your footer are added around your words.
        </p>
      </div>
      {list.isPending ? (
        <div className="divide-y divide-slate-200" role="status" aria-label="Loading the messages">
          {Array.from({ length: 4 }, (_, i) => (
            <div key={i} className="space-y-2 px-4 py-3 sm:px-6">
              <Skeleton className="h-4 w-40" />
              <Skeleton className="h-3 w-64 max-w-full" />
            </div>
          ))}
        </div>
      ) : list.isError ? (
        <ErrorState message={errorInfo(list.error).message} onRetry={() => list.refetch()} />
      ) : list.data.data.length === 0 ? (
        <EmptyState title="No messages to word" description="Policyholder notices show here once there are any to set." />
      ) : template ? (
        <TemplateEditor
          key={template.kind}
          template={template}
          canEdit={can.admin}
          onClose={() => {
            setReturnTo(template.kind);
            setSelected(null);
          }}
        />
      ) : (
        <ul ref={listRef} className="divide-y divide-slate-200" aria-label="Notices">
          {list.data.data.map((t) => (
            <li key={t.kind}>
              <button
                type="button"
                data-kind={t.kind}
                data-testid="notice-row"
                onPointerEnter={TemplateEditor.preload}
                onFocus={TemplateEditor.preload}
                onClick={() => setSelected(t.kind)}
                className="flex w-full items-center gap-3 px-4 py-3 text-left hover:bg-slate-50 focus-visible:bg-slate-50 sm:px-6"
              >
                <span className="min-w-0 flex-1">
                  <span className="flex flex-wrap items-center gap-2">
                    <span className="font-medium text-slate-900">{t.label}</span>
                    {t.customized ? <Badge tone="blue">Customized</Badge> : <Badge>Default</Badge>}
                  </span>
                  <span className="mt-0.5 block text-sm text-slate-600">{t.when}</span>
                </span>
                <span className="hidden text-sm font-medium text-brand-700 sm:inline">{can.admin ? "Edit" : "View"}</span>
                <ChevronRight className="h-4 w-4 shrink-0 text-slate-400" aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
