// Pieces the portal's pages share: a coverage card, the claims and payments lists.
import { Download, FileText, ShieldCheck } from "lucide-react";
import Link from "next/link";
import { StatusBadge } from "@/components/status-badge";
import { Card } from "@/components/ui/card";
import { formatDate } from "@/lib/format";
import { displayMoney } from "@/lib/money-format";
import type { PortalClaim, PortalCoverage, PortalPayment } from "@/server/portal/service";

const label = (s: string) => s.charAt(0).toUpperCase() + s.slice(1).replace(/_/g, " ");

export function CoverageCard({ organizationId, coverage }: { organizationId: string; coverage: PortalCoverage }) {
  const active = coverage.status === "active";
  return (
    <Card className="flex flex-col gap-3 p-5" data-testid="portal-coverage">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="font-semibold text-slate-900 [overflow-wrap:anywhere]">{coverage.policy.name}</h3>
          <p className="text-sm text-slate-600">
            {label(coverage.policy.type)} insurance · {coverage.policy.duration}
          </p>
        </div>
        <StatusBadge status={coverage.status} />
      </div>
      <p className="text-sm text-slate-700">
        {active
          ? "Covered until "
          : coverage.status === "past_due"
            ? "Renewal payment due: covered until "
            : coverage.cancelledAt
              ? "Cancelled on "
              : "Ended on "}
        <strong>
          {formatDate(
            coverage.cancelledAt ?? (coverage.status === "past_due" ? (coverage.graceEndsAt ?? coverage.endsAt) : coverage.endsAt),
          )}
        </strong>
      </p>
      {coverage.autoRenew && coverage.card && active && (
        <p className="text-xs text-slate-600">Renews automatically with the card ending {coverage.card.last4}</p>
      )}
      <p className="text-xs text-slate-600">
        Certificate <span className="font-mono">{coverage.certificateNumber}</span>
      </p>
      <div className="mt-auto flex flex-wrap gap-2 pt-1">
        <Link
          href={`/portal/${organizationId}/coverages/${coverage.id}`}
          className="inline-flex h-9 items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-800 hover:bg-slate-50"
        >
          <ShieldCheck className="h-4 w-4" aria-hidden /> Details, renew, claim
        </Link>
        <a
          href={`/api/portal/${organizationId}/coverages/${coverage.id}/certificate`}
          download
          className="inline-flex h-9 items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-800 hover:bg-slate-50"
        >
          <Download className="h-4 w-4" aria-hidden /> Certificate
          <span className="sr-only"> for {coverage.policy.name}</span>
        </a>
      </div>
    </Card>
  );
}

export function ClaimsList({ organizationId, claims }: { organizationId: string; claims: PortalClaim[] }) {
  if (claims.length === 0) return <p className="px-5 py-6 text-sm text-slate-600">No claims yet.</p>;
  return (
    <ul className="divide-y divide-slate-200" aria-label="Claims">
      {claims.map((c) => (
        <li key={c.id} data-testid="portal-claim-row">
          <Link
            href={`/portal/${organizationId}/claims/${c.id}`}
            className="flex flex-wrap items-center gap-x-4 gap-y-1 px-5 py-3 hover:bg-slate-50"
          >
            <span className="min-w-0 flex-1">
              <span className="block font-medium text-slate-900">
                {label(c.type)} · {displayMoney(c.amount, c.currency)}
              </span>
              <span className="block text-xs text-slate-600">
                {c.policyName} · filed {formatDate(c.createdAt)}
                {c.attachmentCount > 0 && ` · ${c.attachmentCount} file${c.attachmentCount === 1 ? "" : "s"}`}
              </span>
            </span>
            <StatusBadge status={c.status} />
          </Link>
        </li>
      ))}
    </ul>
  );
}

export function PaymentsList({ organizationId, payments }: { organizationId: string; payments: PortalPayment[] }) {
  if (payments.length === 0) return <p className="px-5 py-6 text-sm text-slate-600">No payments yet.</p>;
  return (
    <ul className="divide-y divide-slate-200" aria-label="Payments">
      {payments.map((p) => (
        <li key={p.reference} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-5 py-3" data-testid="portal-payment-row">
          <span className="min-w-0 flex-1">
            <span className="block font-medium text-slate-900">
              {displayMoney(p.amount, p.currency)} · {p.policyName}
            </span>
            <span className="block text-xs text-slate-600">
              {formatDate(p.paidAt ?? p.createdAt)} · <span className="font-mono">{p.reference}</span>
            </span>
          </span>
          <StatusBadge status={p.status} />
          {p.status === "success" && (
            <Link
              href={`/portal/${organizationId}/payments/${p.reference}`}
              className="inline-flex items-center gap-1 text-sm font-medium text-slate-800 underline underline-offset-2"
            >
              <FileText className="h-4 w-4" aria-hidden /> Receipt
            </Link>
          )}
          {p.payUrl && (
            <a href={p.payUrl} className="text-sm font-medium text-slate-800 underline underline-offset-2">
              Complete payment
            </a>
          )}
        </li>
      ))}
    </ul>
  );
}

export function Section({ title, children, testId }: { title: string; children: React.ReactNode; testId?: string }) {
  return (
    <section className="mt-8" data-testid={testId}>
      <h2 className="mb-3 text-lg font-semibold text-slate-900">{title}</h2>
      {children}
    </section>
  );
}
