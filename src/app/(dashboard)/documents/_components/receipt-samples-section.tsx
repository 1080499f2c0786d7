"use client";

import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { ReceiptText, Trash2 } from "lucide-react";
import { useState } from "react";
import { toast } from "@/lib/toast";
import { Button } from "@/components/ui/button";
import { Badge } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/dialog";
import type { ReceiptSampleView } from "@/lib/schemas/documents";
import { errorInfo, useTRPC } from "@/trpc/react";
import { DocumentList } from "./document-list";
import { DocumentRow } from "./document-row";
import { LazyDocumentUploadForm as DocumentUploadForm } from "./lazy-upload-form";

export function ReceiptSamplesSection({ canChange }: { canChange: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const samples = useInfiniteQuery(
    trpc.documents.receiptSamples.infiniteQueryOptions({ limit: 20 }, { getNextPageParam: (l) => l.nextCursor ?? undefined }),
  );
  const [deleting, setDeleting] = useState<ReceiptSampleView | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.documents.receiptSamples.pathKey() });

  const remove = useMutation(
    trpc.documents.deleteReceiptSample.mutationOptions({
      onSuccess: () => {
        toast.success("Receipt sample deleted");
        setDeleting(null);
        void refresh();
      },
      onError: (err) => toast.error(errorInfo(err).message),
    }),
  );

  return (
    <div className="space-y-6">
      {canChange && <DocumentUploadForm kind="receiptSample" onUploaded={refresh} />}
      <DocumentList<ReceiptSampleView>
        query={samples}
        label="Receipt samples"
        empty={{
          icon: <ReceiptText className="h-10 w-10" />,
          title: "No receipt samples yet",
          description: canChange
            ? "Upload your receipt template above: it is attached to the receipt each paying customer is emailed."
            : "An owner or admin of your organization can upload one.",
        }}
        row={(s, index) => (
          <DocumentRow
            key={s.id}
            doc={s}
            testId="receipt-sample-row"
            // The newest sample is the one attached to customers' receipts (the list is newest first).
            badges={index === 0 && <Badge tone="green">used on receipts</Badge>}
            actions={
              canChange && (
                <Button variant="secondary" size="sm" onClick={() => setDeleting(s)} aria-label={`Delete ${s.name}`}>
                  <Trash2 className="h-4 w-4 text-red-600" aria-hidden /> Delete
                </Button>
              )
            }
          />
        )}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={`Delete “${deleting?.name ?? ""}”?`}
        description="The receipt sample and its file are deleted for good. This cannot be undone."
        confirmLabel="Delete receipt sample"
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ id: deleting.id })}
      />
    </div>
  );
}
