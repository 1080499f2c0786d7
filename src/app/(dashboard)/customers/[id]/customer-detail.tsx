"use client";

import { useQuery } from "@tanstack/react-query";
import { Download, ExternalLink } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { BackLink, Facts } from "@/components/detail";
import { ResponsiveTable } from "@/components/responsive-table";
import { AutoRenewCell } from "@/components/auto-renew-cell";
import { StatusBadge } from "@/components/status-badge";
import { Badge, Card, EmptyState, ErrorState, PageHeader, Skeleton } from "@/components/ui/card";
import { formatDate } from "@/lib/format";
import { displayMoney } from "@/lib/money-format";
import type { CustomerDetail as Detail } from "@/lib/schemas/customers";
import { errorInfo, useTRPC } from "@/trpc/react";
import { useMe } from "../../_components/me";
import { FileClaimButton } from "../../claims/_components/file-claim-button";
import { CancelCoverageButton } from "./cancel-coverage";
import { CreatePaymentButton } from "./create-payment";
import { MessagesSection } from "./messages-section";
import { RemindersSection } from "./reminders-section";

function Section({ title, count, children }: { title: string; count: number; children: ReactNode }) {
  return (
    <Card role="region" aria-label={title}>
      <h2 className="border-b border-slate-200 px-4 py-3 text-base font-semibold sm:px-6">
        {title} <span className="font-normal text-slate-600">({count})</span>
      </h2>
      {children}
    </Card>
  );
}

/** A coverage's certificate: its number, the PDF (session download) and the public check, in a new tab. */
function CertificateCell({ coverage }: { coverage: { id: string; certificateNumber: string } }) {
  const n = coverage.certificateNumber;
  return (
    <div className="space-y-1">
      <p className="font-mono text-xs text-slate-700" data-testid="coverage-certificate-number">
        {n}
      </p>
      <div className="flex flex-wrap gap-x-4 gap-y-1">
        <a
          href={`/api/coverages/${encodeURIComponent(coverage.id)}/certificate`}
          download
          aria-label={`Download certificate ${n}`}
          className="inline-flex items-center gap-1 font-medium text-brand-700 hover:underline"
        >
          <Download className="h-3.5 w-3.5" aria-hidden />
          Download certificate
        </a>
        <a
          href={`/verify/${encodeURIComponent(n)}`}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={`Verify ${n} (opens in a new tab)`}
          className="inline-flex items-center gap-1 font-medium text-brand-700 hover:underline"
        >
          <ExternalLink className="h-3.5 w-3.5" aria-hidden />
          Verify
        </a>
      </div>
    </div>
  );
}

const claimType = (t: string) => `${t[0]!.toUpperCase()}${t.slice(1)}`;

export function CustomerDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const { can } = useMe();
  const customer = useQuery(trpc.customers.get.queryOptions({ id }));

  if (customer.isPending) {
    return (
      <div className="space-y-4" role="status" aria-label="Loading the customer">
        <Skeleton className="h-8 w-64" />
        <Skeleton className="h-40 w-full" />
      </div>
    );
  }
  if (customer.isError) {
    const info = errorInfo(customer.error);
    return (
      <>
        <BackLink href="/customers">Customers</BackLink>
        <Card>
          {info.code === "not_found" ? (
            <EmptyState title="Customer not found" description="They do not exist or belong to another organization." />
          ) : (
            <ErrorState message={info.message} onRetry={() => customer.refetch()} />
          )}
        </Card>
      </>
    );
  }
  const c: Detail = customer.data;
  const money = (v: string) => displayMoney(v, c.currency);

  return (
    <>
      <BackLink href="/customers">Customers</BackLink>
      <PageHeader
        title={c.name ?? c.email}
        description={c.name ? c.email : undefined}
        actions={
          can.manage ? (
            <>
              <CreatePaymentButton email={c.email} />
              {c.coverageList.length > 0 && (
                <FileClaimButton
                  customerEmail={c.email}
                  policies={c.coverageList.map((v) => ({ id: v.policyId, name: v.policyName }))}
                />
              )}
            </>
          ) : undefined
        }
      />
      <div className="space-y-6">
        <Card className="p-6">
          <Facts
            items={[
              { label: "Total paid", value: money(c.totalPaid), testId: "customer-total-paid" },
              { label: "Successful payments", value: String(c.paymentsCount) },
              { label: "Active coverages", value: `${c.coverages.active} of ${c.coverages.total}`, testId: "customer-active" },
              { label: "Customer since", value: formatDate(c.createdAt) },
              {
                label: "Phone",
                testId: "customer-phone",
                value: (
                  <span className="inline-flex flex-wrap items-center gap-2">
                    {c.phone ? <span className="font-mono">{c.phone}</span> : <span className="text-slate-600">None given</span>}
                    {c.smsOptOut && (
                      <span title="They turned text messages off in the policyholder portal">
                        <Badge tone="amber">Texts off</Badge>
                      </span>
                    )}
                  </span>
                ),
              },
            ]}
          />
        </Card>

        <Section title="Coverages" count={c.coverageList.length}>
          <ResponsiveTable
            label="Coverages"
            rows={c.coverageList}
            rowKey={(v) => v.id}
            testId="customer-coverage"
            columns={[
              {
                header: "Policy",
                cell: (v) => (
                  <Link href={`/policies/${v.policyId}`} className="font-medium text-brand-700 hover:underline">
                    {v.policyName}
                  </Link>
                ),
              },
              {
                header: "Status",
                cell: (v) => (
                  <div className="space-y-1" data-testid="coverage-status">
                    <StatusBadge status={v.status} />
                    {v.cancelledAt && (
                      <p className="text-xs text-slate-600">
                        {formatDate(v.cancelledAt)}
                        {v.cancellationReason && ` · ${v.cancellationReason}`}
                      </p>
                    )}
                  </div>
                ),
              },
              { header: "Covered", wide: true, cell: (v) => `${formatDate(v.startsAt)} – ${formatDate(v.endsAt)}` },
              { header: "Renewals", numeric: true, cell: (v) => v.renewalCount },
              {
                header: "Renewal",
                wide: true,
                cell: (v) => <AutoRenewCell coverage={v} canChange={can.admin} />,
              },
              { header: "Certificate", wide: true, cell: (v) => <CertificateCell coverage={v} /> },
              ...(can.admin
                ? [
                    {
                      header: "Actions",
                      cell: (v: Detail["coverageList"][number]) =>
                        v.status === "active" ? (
                          <CancelCoverageButton coverageId={v.id} policyName={v.policyName} email={c.email} />
                        ) : null,
                    },
                  ]
                : []),
            ]}
          />
        </Section>

        <RemindersSection customerId={c.id} coverages={c.coverageList} />

        <Section title="Payments" count={c.payments.length}>
          {c.payments.length === 0 ? (
            <p className="px-6 py-4 text-sm text-slate-600">No payments.</p>
          ) : (
            <ResponsiveTable
              label="Customer payments"
              rows={c.payments}
              rowKey={(p) => p.reference}
              testId="customer-payment"
              columns={[
                {
                  header: "Payment",
                  cell: (p) => (
                    <Link href={`/payments/${p.reference}`} className="font-mono text-xs text-brand-700 hover:underline">
                      {p.reference}
                    </Link>
                  ),
                },
                { header: "Policy", cell: (p) => p.policyName },
                { header: "Amount", numeric: true, cell: (p) => money(p.amount) },
                { header: "Status", cell: (p) => <StatusBadge status={p.status} /> },
                { header: "Date", cell: (p) => formatDate(p.paidAt ?? p.createdAt) },
              ]}
            />
          )}
        </Section>

        <Section title="Claims" count={c.claims.length}>
          {c.claims.length === 0 ? (
            <p className="px-6 py-4 text-sm text-slate-600">No claims.</p>
          ) : (
            <ResponsiveTable
              label="Customer claims"
              rows={c.claims}
              rowKey={(k) => k.id}
              testId="customer-claim"
              columns={[
                {
                  header: "Claim",
                  cell: (k) => (
                    <Link href={`/claims/${k.id}`} className="font-medium text-brand-700 hover:underline">
                      {claimType(k.type)} claim
                    </Link>
                  ),
                },
                { header: "Policy", cell: (k) => k.policyName },
                { header: "Amount", numeric: true, cell: (k) => money(k.amount) },
                { header: "Status", cell: (k) => <StatusBadge status={k.status} /> },
                { header: "Filed", cell: (k) => formatDate(k.createdAt) },
              ]}
            />
          )}
        </Section>

        <MessagesSection messages={c.messages} />
      </div>
    </>
  );
}
