"use client";

import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { BadgeCheck, Trash2 } from "lucide-react";
import { useState } from "react";
import { toast } from "@/lib/toast";
import { Button } from "@/components/ui/button";
import { Badge } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/dialog";
import { Switch } from "@/components/ui/switch";
import type { CertificateView } from "@/lib/schemas/documents";
import { errorInfo, useTRPC } from "@/trpc/react";
import { DocumentList } from "./document-list";
import { DocumentRow } from "./document-row";
import { LazyDocumentUploadForm as DocumentUploadForm } from "./lazy-upload-form";

export function CertificatesSection({ canChange }: { canChange: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const certificates = useInfiniteQuery(
    trpc.documents.certificates.infiniteQueryOptions({ limit: 20 }, { getNextPageParam: (l) => l.nextCursor ?? undefined }),
  );
  const [deleting, setDeleting] = useState<CertificateView | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.documents.certificates.pathKey() });
  const onError = (err: unknown) => toast.error(errorInfo(err).message);

  const setActive = useMutation(
    trpc.documents.setCertificateActive.mutationOptions({
      onSuccess: (c) => {
        toast.success(`“${c.name}” ${c.isActive ? "activated" : "deactivated"}`);
        void refresh();
      },
      onError,
    }),
  );
  const remove = useMutation(
    trpc.documents.deleteCertificate.mutationOptions({
      onSuccess: () => {
        toast.success("Certificate deleted");
        setDeleting(null);
        void refresh();
      },
      onError,
    }),
  );

  return (
    <div className="space-y-6">
      {canChange && <DocumentUploadForm kind="certificate" onUploaded={refresh} />}
      <DocumentList<CertificateView>
        query={certificates}
        label="Certificates"
        empty={{
          icon: <BadgeCheck className="h-10 w-10" />,
          title: "No certificates yet",
          description: canChange
            ? "Upload your insurance licence, operating permit or tax clearance above."
            : "An owner or admin of your organization can upload them.",
        }}
        row={(c) => {
          const toggling = setActive.isPending && setActive.variables?.id === c.id;
          return (
            <DocumentRow
              key={c.id}
              doc={c}
              testId="certificate-row"
              badges={
                <>
                  <Badge tone="blue">{c.type}</Badge>
                  <Badge tone={c.isActive ? "green" : "slate"}>{c.isActive ? "active" : "inactive"}</Badge>
                </>
              }
              actions={
                canChange && (
                  <>
                    <label className="flex items-center gap-2 px-1 text-sm text-slate-700">
                      <Switch
                        checked={c.isActive}
                        disabled={toggling}
                        label={`Active: ${c.name}`}
                        onCheckedChange={(isActive) => setActive.mutate({ id: c.id, isActive })}
                      />
                      <span aria-hidden>Active</span>
                    </label>
                    <Button variant="secondary" size="sm" onClick={() => setDeleting(c)} aria-label={`Delete ${c.name}`}>
                      <Trash2 className="h-4 w-4 text-red-600" aria-hidden /> Delete
                    </Button>
                  </>
                )
              }
            />
          );
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={`Delete “${deleting?.name ?? ""}”?`}
        description="The certificate and its file are deleted for good. This cannot be undone."
        confirmLabel="Delete certificate"
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ id: deleting.id })}
      />
    </div>
  );
}
