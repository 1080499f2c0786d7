import { CheckCircle2, FileText } from "lucide-react";
import { BackLink, Facts } from "@/components/detail";
import { StatusBadge } from "@/components/status-badge";
import { Card } from "@/components/ui/card";
import { formatBytes } from "@/components/upload/xhr-upload";
import { formatDateTime } from "@/lib/format";
import { displayMoney } from "@/lib/money-format";
import { portalBanks, portalClaim } from "@/server/portal/service";
import { orNotFound, portalContext } from "../../_components/session";
import { PayoutAccount } from "../../_components/payout-account";
import { PortalSignIn } from "../../_components/sign-in";
import { Section } from "../../_components/views";

export const dynamic = "force-dynamic";

const STEP: Record<string, string> = {
  submitted: "Claim received",
  under_review: "Under review",
  approved: "Approved",
  rejected: "Not approved",
  paid: "Paid",
};

export default async function PortalClaimPage({
  params,
  searchParams,
}: {
  params: Promise<{ organizationId: string; claimId: string }>;
  searchParams: Promise<{ filed?: string }>;
}) {
  const { organizationId, claimId } = await params;
  const { filed } = await searchParams;
  const { business, session } = await portalContext(organizationId);
  if (!session) return <PortalSignIn organizationId={organizationId} businessName={business.name} />;
  const { claim, history, attachments, payout } = await orNotFound(portalClaim(session, claimId));
  // An approved claim with no payout under way (or paid): where to pay it, asked of the policyholder.
  const payoutStarted = payout !== null && payout.status !== "failed";
  const askAccount = claim.status === "approved" && !payoutStarted;
  const banks = askAccount ? await portalBanks(session, claim.currency) : [];
  const base = `/portal/${organizationId}`;
  const fileUrl = (id: string) => `/api/portal/${organizationId}/files/${id}`;
  return (
    <>
      <BackLink href={claim.coverageId ? `${base}/coverages/${claim.coverageId}` : base}>Back to your cover</BackLink>
      {filed === "1" && (
        <p role="status" className="mb-4 flex items-center gap-2 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
          <CheckCircle2 className="h-4 w-4" aria-hidden /> Your claim was sent to {business.name}. Follow its progress here.
        </p>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Claim on {claim.policyName}</h1>
        <span data-testid="portal-claim-status">
          <StatusBadge status={claim.status} />
        </span>
      </div>
      <Card className="mt-6 p-5">
        <Facts
          items={[
            { label: "Amount claimed", value: displayMoney(claim.amount, claim.currency) },
            ...(claim.approvedAmount
              ? [{ label: "Amount approved", value: displayMoney(claim.approvedAmount, claim.currency) }]
              : []),
            { label: "Kind of loss", value: claim.type.charAt(0).toUpperCase() + claim.type.slice(1).replace(/_/g, " ") },
            { label: "Filed", value: formatDateTime(claim.createdAt) },
            { label: "Reference", value: <span className="font-mono">{claim.id}</span> },
          ]}
        />
        <p className="mt-4 whitespace-pre-wrap text-sm text-slate-800 [overflow-wrap:anywhere]">{claim.description}</p>
      </Card>
      {payoutStarted && payout && (
        <Section title="Your payment" testId="portal-claim-payout">
          <Card className="p-5">
            <p className="text-sm text-slate-800">
              {payout.status === "paid"
                ? `${displayMoney(payout.amount, payout.currency)} was paid to ${payout.bankName} ••••${payout.accountNumberLast4}${payout.paidAt ? ` on ${formatDateTime(payout.paidAt)}` : ""}.`
                : `${displayMoney(payout.amount, payout.currency)} is on its way to ${payout.bankName} ••••${payout.accountNumberLast4}.`}
            </p>
          </Card>
        </Section>
      )}
      {askAccount && (
        <Section title="Where should we pay you?" testId="portal-claim-payout-account">
          <Card className="p-5">
            <PayoutAccount organizationId={organizationId} claimId={claim.id} banks={banks} account={claim.payoutAccount} />
          </Card>
        </Section>
      )}
      <Section title="Progress">
        <Card className="p-5">
          <ol className="space-y-3" aria-label="Status history">
            {history.map((h) => (
              <li key={h.id} className="flex flex-wrap items-baseline gap-x-3 text-sm" data-testid="portal-claim-step">
                <span className="font-medium text-slate-900">{STEP[h.toStatus] ?? h.toStatus}</span>
                <span className="text-xs text-slate-600">{formatDateTime(h.at)}</span>
              </li>
            ))}
          </ol>
        </Card>
      </Section>
      <Section title="Photos and documents" testId="portal-claim-files">
        <Card className="p-5">
          {attachments.length === 0 ? (
            <p className="text-sm text-slate-600">No files were attached to this claim.</p>
          ) : (
            <ul className="grid gap-4 sm:grid-cols-2">
              {attachments.map((a) => (
                <li key={a.id} className="min-w-0 rounded-md border border-slate-200 p-3">
                  {a.contentType.startsWith("image/") ? (
                    <a href={fileUrl(a.id)} target="_blank" rel="noreferrer" className="block">
                      {/* eslint-disable-next-line @next/next/no-img-element -- the policyholder's own upload, served through the portal */}
                      <img src={fileUrl(a.id)} alt={a.fileName} className="max-h-48 w-full rounded object-contain" />
                    </a>
                  ) : (
                    <FileText className="h-10 w-10 text-slate-500" aria-hidden />
                  )}
                  <a
                    href={`${fileUrl(a.id)}?download=1`}
                    className="mt-2 block text-sm font-medium text-slate-800 underline underline-offset-2 [overflow-wrap:anywhere]"
                  >
                    {a.fileName}
                  </a>
                  <span className="text-xs text-slate-600">{formatBytes(a.size)}</span>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </Section>
    </>
  );
}
