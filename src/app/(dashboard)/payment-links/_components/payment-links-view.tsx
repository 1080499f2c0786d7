"use client";

// Payment links: reusable pages to buy one policy, to post anywhere. Each row
// has its address (copy, open, QR code), its figures (page views → payments
// started → paid, and revenue) and turning it off (confirmed) or on.
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { Copy, ExternalLink, Link2, Plus, QrCode } from "lucide-react";
import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { lazyDialog } from "@/components/lazy-dialog";
import { Button } from "@/components/ui/button";
import { Badge, Card, EmptyState, ErrorState, PageHeader, Skeleton } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/dialog";
import { formatDateTime } from "@/lib/format";
import { displayMoney } from "@/lib/money-format";
import type { PaymentLink } from "@/lib/schemas/payment-links";
import { toast } from "@/lib/toast";
import { errorInfo, useTRPC } from "@/trpc/react";
import { ReadOnlyNotice, useMe } from "../../_components/me";
import { QrDialog } from "./qr-dialog";

// Loaded when first opened (its form, the API's schema and zod with it).
const NewLinkDialog = lazyDialog(() => import("./new-link-dialog").then((m) => m.NewLinkDialog));

export function PaymentLinksView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { can } = useMe();
  const search = useSearchParams();
  const links = useInfiniteQuery(
    trpc.paymentLinks.list.infiniteQueryOptions({ limit: 20 }, { getNextPageParam: (last) => last.nextCursor ?? undefined }),
  );
  // "Share" on a policy opens this page with the policy chosen.
  const [creating, setCreating] = useState(!!search.get("policyId"));
  const [qr, setQr] = useState<PaymentLink | null>(null);
  const [turningOff, setTurningOff] = useState<PaymentLink | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.paymentLinks.list.pathKey() });
  const update = useMutation(
    trpc.paymentLinks.update.mutationOptions({
      onSuccess: (l) => {
        toast.success(l.active ? "Link turned on" : "Link turned off: its page says it is no longer available");
        setTurningOff(null);
        void refresh();
      },
      onError: (err) => toast.error(errorInfo(err).message),
    }),
  );
  const rows = links.data?.pages.flatMap((p) => p.data) ?? [];

  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      toast.success("Link copied");
    } catch {
      toast.error("Could not copy: select the address and copy it");
    }
  };

  return (
    <>
      <PageHeader
        title="Payment links"
        description="A page anyone can open to buy a policy: post it on WhatsApp or Instagram, print its QR code, or put it behind a “Buy cover” button."
        actions={
          can.manage && (
            <Button className="whitespace-nowrap" onClick={() => setCreating(true)}>
              <Plus className="h-4 w-4" aria-hidden /> New link
            </Button>
          )
        }
      />
      {!can.manage && (
        <div className="mb-4">
          <ReadOnlyNotice>Only owners, admins and members who manage policies create or turn off links.</ReadOnlyNotice>
        </div>
      )}
      <Card>
        {links.isPending ? (
          <div className="space-y-3 p-6" aria-label="Loading payment links">
            <Skeleton className="h-5 w-1/3" />
            <Skeleton className="h-5 w-2/3" />
          </div>
        ) : links.isError ? (
          <ErrorState message={errorInfo(links.error).message} onRetry={() => links.refetch()} />
        ) : rows.length === 0 ? (
          <EmptyState
            icon={<Link2 className="h-10 w-10" />}
            title="No payment links yet"
            description="Make a link to a policy and share it: customers buy from its page, no code needed."
            action={can.manage && <Button onClick={() => setCreating(true)}>Create your first link</Button>}
          />
        ) : (
          <ul role="list" aria-label="Payment links" className="divide-y divide-slate-200">
            {rows.map((l) => (
              <li key={l.id} className="space-y-3 p-4 sm:px-6" data-testid="payment-link-row">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium text-slate-900 [overflow-wrap:anywhere]">{l.name ?? l.policyName}</span>
                  {l.name && <span className="text-sm text-slate-600">· {l.policyName}</span>}
                  <Badge tone={l.active ? "green" : "slate"}>{l.active ? "on" : "off"}</Badge>
                  {!l.livemode && <Badge tone="amber">test</Badge>}
                  {l.collectPhone && <Badge tone="blue">asks phone</Badge>}
                </div>
                <p className="font-mono text-xs text-slate-700 [overflow-wrap:anywhere]" data-testid="payment-link-url">
                  {l.url}
                </p>
                <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4" data-testid="payment-link-figures">
                  <div>
                    <dt className="text-xs text-slate-600">Page views</dt>
                    <dd className="font-medium">{l.views}</dd>
                  </div>
                  <div>
                    <dt className="text-xs text-slate-600">Payments started</dt>
                    <dd className="font-medium">{l.started}</dd>
                  </div>
                  <div>
                    <dt className="text-xs text-slate-600">Paid</dt>
                    <dd className="font-medium">{l.payments}</dd>
                  </div>
                  <div>
                    <dt className="text-xs text-slate-600">Revenue</dt>
                    <dd className="font-medium">{displayMoney(l.revenue, l.currency)}</dd>
                  </div>
                </dl>
                <div className="flex flex-wrap items-center gap-2">
                  <Button variant="secondary" size="sm" onClick={() => copy(l.url)}>
                    <Copy className="h-4 w-4" aria-hidden /> Copy link
                  </Button>
                  <a
                    href={l.url}
                    target="_blank"
                    rel="noreferrer"
                    className="inline-flex h-8 items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-800 hover:bg-slate-50"
                  >
                    <ExternalLink className="h-4 w-4" aria-hidden /> Open
                  </a>
                  <Button variant="secondary" size="sm" onClick={() => setQr(l)}>
                    <QrCode className="h-4 w-4" aria-hidden /> QR code
                  </Button>
                  <a
                    href={`/payments?paymentLinkId=${encodeURIComponent(l.id)}`}
                    className="text-sm font-medium text-blue-700 underline underline-offset-2"
                  >
                    Its payments
                  </a>
                  {can.manage &&
                    (l.active ? (
                      <Button variant="danger" size="sm" onClick={() => setTurningOff(l)}>
                        Turn off
                      </Button>
                    ) : (
                      <Button
                        variant="secondary"
                        size="sm"
                        loading={update.isPending && update.variables?.id === l.id}
                        onClick={() => update.mutate({ id: l.id, data: { active: true } })}
                      >
                        Turn on
                      </Button>
                    ))}
                </div>
                <p className="text-xs text-slate-600">Created {formatDateTime(l.createdAt)}</p>
              </li>
            ))}
          </ul>
        )}
        {links.hasNextPage && (
          <div className="border-t border-slate-200 p-4 text-center">
            <Button variant="secondary" size="sm" loading={links.isFetchingNextPage} onClick={() => links.fetchNextPage()}>
              Load more
            </Button>
          </div>
        )}
      </Card>

      <NewLinkDialog
        open={creating}
        onOpenChange={setCreating}
        policyId={search.get("policyId") ?? ""}
        onCreated={(l) => {
          setCreating(false);
          void refresh();
          setQr(l);
        }}
      />
      <QrDialog link={qr} onClose={() => setQr(null)} />
      <ConfirmDialog
        open={turningOff !== null}
        onOpenChange={(open) => !open && setTurningOff(null)}
        title="Turn this link off?"
        description="Its page will say the cover is no longer available there. Payments already made stay as they are; you can turn it on again."
        confirmLabel="Turn off"
        cancelLabel="Keep it on"
        loading={update.isPending}
        onConfirm={() => turningOff && update.mutate({ id: turningOff.id, data: { active: false } })}
      />
    </>
  );
}
