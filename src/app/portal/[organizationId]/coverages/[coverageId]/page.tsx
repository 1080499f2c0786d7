import { CheckCircle2, Download, ExternalLink } from "lucide-react";
import { BackLink, Facts } from "@/components/detail";
import { StatusBadge } from "@/components/status-badge";
import { Card } from "@/components/ui/card";
import { formatDate } from "@/lib/format";
import { db } from "@/server/db/client";
import { portalCoverage } from "@/server/portal/service";
import { PortalClaimForm } from "../../_components/claim-form";
import { AutoRenew } from "../../_components/auto-renew";
import { CancelCover } from "../../_components/cancel-cover";
import { RenewButton } from "../../_components/renew-button";
import { orNotFound, portalContext } from "../../_components/session";
import { PortalSignIn } from "../../_components/sign-in";
import { ClaimsList, Section } from "../../_components/views";

export const dynamic = "force-dynamic";

export default async function PortalCoveragePage({
  params,
  searchParams,
}: {
  params: Promise<{ organizationId: string; coverageId: string }>;
  searchParams: Promise<{ reference?: string }>;
}) {
  const { organizationId, coverageId } = await params;
  const { reference } = await searchParams;
  const { business, session } = await portalContext(organizationId);
  if (!session) return <PortalSignIn organizationId={organizationId} businessName={business.name} />;
  const { coverage, claims } = await orNotFound(portalCoverage(session, coverageId));
  // Back from the checkout of a renewal: say whether it went through.
  const paid =
    typeof reference === "string" && /^[\w-]{1,100}$/.test(reference)
      ? await db.payment.findFirst({
          where: { reference, organizationId, email: session.email, coverageId: coverage.id, status: "success" },
          select: { reference: true },
        })
      : null;
  const base = `/portal/${organizationId}`;
  return (
    <>
      <BackLink href={base}>Your cover</BackLink>
      {paid && (
        <p role="status" className="mb-4 flex items-center gap-2 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
          <CheckCircle2 className="h-4 w-4" aria-hidden /> Payment received: your cover now runs until{" "}
          {formatDate(coverage.endsAt)}.
        </p>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900 [overflow-wrap:anywhere]">{coverage.policy.name}</h1>
        <StatusBadge status={coverage.status} />
      </div>
      <Card className="mt-6 p-5">
        <Facts
          items={[
            {
              label: "Certificate number",
              value: <span className="font-mono">{coverage.certificateNumber}</span>,
              testId: "portal-certificate-number",
            },
            {
              label: "Status",
              value:
                coverage.status === "active"
                  ? "Active"
                  : coverage.status === "past_due"
                    ? `Renewal payment due: covered until ${formatDate(coverage.graceEndsAt ?? coverage.endsAt)}`
                    : coverage.cancelledAt
                    ? `Cancelled on ${formatDate(coverage.cancelledAt)}`
                    : "Expired",
              testId: "portal-coverage-status",
            },
            { label: "Cover starts", value: formatDate(coverage.startsAt) },
            {
              label: coverage.status === "active" ? "Cover ends" : "Cover ended",
              value: formatDate(coverage.endsAt),
              testId: "portal-ends-at",
            },
            { label: "Renewals", value: String(coverage.renewalCount) },
            { label: "Policy", value: `${coverage.policy.type} · ${coverage.policy.duration}` },
          ]}
        />
        <div className="mt-5 flex flex-wrap gap-2">
          <a
            href={`/api/portal/${organizationId}/coverages/${coverage.id}/certificate`}
            download
            data-testid="portal-download-certificate"
            className="inline-flex h-10 items-center gap-1.5 rounded-md border border-slate-300 bg-white px-4 text-sm font-medium text-slate-800 hover:bg-slate-50"
          >
            <Download className="h-4 w-4" aria-hidden /> Download certificate
          </a>
          <a
            href={coverage.verifyUrl}
            target="_blank"
            rel="noreferrer"
            className="inline-flex h-10 items-center gap-1.5 rounded-md border border-slate-300 bg-white px-4 text-sm font-medium text-slate-800 hover:bg-slate-50"
          >
            <ExternalLink className="h-4 w-4" aria-hidden /> Verification page
          </a>
        </div>
        <p className="mt-3 text-xs text-slate-600">
          Anyone you show the certificate to can check it at its verification page; it shows the dates and the policy, not your
          details.
        </p>
      </Card>
      {coverage.status === "cancelled" ? (
        <Section title="Cancelled" testId="portal-cancelled">
          <Card className="p-5">
            <p className="text-sm text-slate-700">
              This cover was cancelled on {formatDate(coverage.cancelledAt!)}, so it cannot be renewed. To be covered again, buy
              the policy again from {business.name}.
            </p>
          </Card>
        </Section>
      ) : (
        <Section title="Renew" testId="portal-renew">
          <Card className="p-5">
            <div className="mb-5 border-b border-slate-200 pb-5">
              <AutoRenew
                organizationId={organizationId}
                coverageId={coverage.id}
                autoRenew={coverage.autoRenew}
                card={coverage.card}
                endsAt={coverage.endsAt}
                graceEndsAt={coverage.graceEndsAt}
                status={coverage.status}
                price={coverage.policy.price}
                currency={coverage.policy.currency}
              />
            </div>
            <p className="mb-3 text-sm text-slate-700">
              Renewing adds one{" "}
              {coverage.policy.duration === "monthly" ? "month" : coverage.policy.duration === "quarterly" ? "quarter" : "year"}{" "}
              {coverage.status === "active" || coverage.status === "past_due"
                ? `after ${formatDate(coverage.endsAt)}`
                : "from the day you pay"}
              .
            </p>
            <RenewButton
              organizationId={organizationId}
              coverageId={coverage.id}
              price={coverage.policy.price}
              currency={coverage.policy.currency}
              onSale={coverage.policy.onSale}
            />
          </Card>
        </Section>
      )}
      <Section title="Make a claim" testId="portal-file-claim">
        <Card className="p-5">
          <PortalClaimForm organizationId={organizationId} coverageId={coverage.id} currency={coverage.policy.currency} />
        </Card>
      </Section>
      <Section title="Claims on this cover">
        <Card>
          <ClaimsList organizationId={organizationId} claims={claims} />
        </Card>
      </Section>
      {coverage.status === "active" && (
        <Section title="Cancel your cover" testId="portal-cancel">
          <Card className="p-5">
            <CancelCover organizationId={organizationId} coverageId={coverage.id} />
          </Card>
        </Section>
      )}
    </>
  );
}
