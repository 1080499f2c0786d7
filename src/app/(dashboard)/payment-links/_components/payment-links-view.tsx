"use client";

// Payment links: reusable pages to buy one policy, to post anywhere. Each row
// has its address (copy, open, QR code), its figures (page views → payments
// started → paid, and revenue) and turning it off (confirmed) or on.
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { Copy, ExternalLink, Link2, Plus, QrCode } from "lucide-react";
import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Badge, Card, EmptyState, ErrorState, PageHeader, Skeleton } from "@/components/ui/card";
import { ConfirmDialog, Dialog } from "@/components/ui/dialog";
import { Field, FormError, Input } from "@/components/ui/field";
import { formatDateTime } from "@/lib/format";
import { displayMoney } from "@/lib/money-format";
import { PolicyOnSaleSelect } from "@/components/policy-on-sale-select";
import { CreatePaymentLinkInput, type PaymentLink } from "@/lib/schemas/payment-links";
import { toast } from "@/lib/toast";
import { errorInfo, useTRPC } from "@/trpc/react";
import { ReadOnlyNotice, useMe } from "../../_components/me";
import { QrDialog } from "./qr-dialog";

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

function NewLinkDialog({
  open,
  onOpenChange,
  policyId,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  policyId: string;
  onCreated: (link: PaymentLink) => void;
}) {
  const trpc = useTRPC();
  const [draft, setDraft] = useState({ policyId, name: "", collectPhone: false, redirectUrl: "" });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const create = useMutation(
    trpc.paymentLinks.create.mutationOptions({
      onSuccess: (l) => {
        toast.success("Link created: share it, or download its QR code");
        onCreated(l);
      },
      onError: (err) => {
        const info = errorInfo(err);
        setErrors(Object.fromEntries(info.fieldErrors.map((f) => [f.path, f.message])));
        setFormError(info.fieldErrors.length ? null : info.message);
      },
    }),
  );
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (next) {
          setDraft({ policyId, name: "", collectPhone: false, redirectUrl: "" });
          setErrors({});
          setFormError(null);
        }
        onOpenChange(next);
      }}
      title="New payment link"
      description="A page to buy one policy. Make one per campaign or agent to see which sells."
    >
      <form
        className="space-y-4"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const parsed = CreatePaymentLinkInput.safeParse({
            policyId: draft.policyId,
            name: draft.name.trim() || undefined,
            collectPhone: draft.collectPhone,
            redirectUrl: draft.redirectUrl.trim() || undefined,
          });
          const found: Record<string, string> = {};
          for (const issue of parsed.error?.issues ?? []) found[String(issue.path[0])] ??= issue.message;
          setErrors(found);
          setFormError(null);
          if (parsed.success) create.mutate(parsed.data);
        }}
      >
        <PolicyOnSaleSelect
          id="link-policy"
          value={draft.policyId}
          onChange={(policyId) => setDraft({ ...draft, policyId })}
          error={errors.policyId}
          enabled={open}
        />
        <Field
          id="link-name"
          label="Label (optional)"
          error={errors.name}
          hint="For you only, e.g. “Instagram, November” or an agent's name"
        >
          <Input id="link-name" value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} />
        </Field>
        <label className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            className="mt-0.5 h-4 w-4 rounded border-slate-300"
            checked={draft.collectPhone}
            onChange={(e) => setDraft({ ...draft, collectPhone: e.target.checked })}
          />
          <span>Ask for the customer&apos;s phone number</span>
        </label>
        <Field
          id="link-redirect"
          label="After paying, send the customer to (optional)"
          error={errors.redirectUrl}
          hint="Your own thank-you page, https://…; by default the checkout shows its receipt"
        >
          <Input
            id="link-redirect"
            inputMode="url"
            value={draft.redirectUrl}
            aria-invalid={!!errors.redirectUrl}
            aria-describedby={errors.redirectUrl ? "link-redirect-error" : undefined}
            onChange={(e) => setDraft({ ...draft, redirectUrl: e.target.value })}
          />
        </Field>
        <FormError message={formError} />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create link
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
