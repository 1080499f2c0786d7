import { BackLink, Facts } from "@/components/detail";
import { Card } from "@/components/ui/card";
import { formatDate, formatDateTime } from "@/lib/format";
import { displayMoney } from "@/lib/money-format";
import { portalPayment } from "@/server/portal/service";
import { PrintButton } from "../../_components/print-button";
import { orNotFound, portalContext } from "../../_components/session";
import { PortalSignIn } from "../../_components/sign-in";

export const dynamic = "force-dynamic";

export default async function PortalReceiptPage({ params }: { params: Promise<{ organizationId: string; reference: string }> }) {
  const { organizationId, reference } = await params;
  const { business, session } = await portalContext(organizationId);
  if (!session) return <PortalSignIn organizationId={organizationId} businessName={business.name} />;
  const p = await orNotFound(portalPayment(session, reference));
  return (
    <>
      <div className="print:hidden">
        <BackLink href={`/portal/${organizationId}`}>Your cover</BackLink>
      </div>
      <Card className="p-6 sm:p-8">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Receipt</h1>
            <p className="mt-1 text-sm text-slate-600">
              {business.name}
              {business.email ? ` · ${business.email}` : ""}
            </p>
          </div>
          <PrintButton />
        </div>
        <p className="mt-6 text-3xl font-semibold tabular-nums text-slate-900">{displayMoney(p.amount, p.currency)}</p>
        <p className="text-sm text-slate-600">{p.status === "success" ? `Paid ${formatDateTime(p.paidAt)}` : `Status: ${p.status}`}</p>
        <div className="mt-6">
          <Facts
            items={[
              { label: "Reference", value: <span className="font-mono">{p.reference}</span> },
              { label: "Policy", value: `${p.policy.name} (${p.policy.type}, ${p.policy.duration})` },
              { label: "Paid by", value: p.customerName ? `${p.customerName} (${p.email})` : p.email },
              { label: "For", value: p.coverageAction === "renewed" ? "Renewal of cover" : "New cover" },
              ...(p.certificateNumber ? [{ label: "Certificate", value: <span className="font-mono">{p.certificateNumber}</span> }] : []),
              { label: "Date", value: formatDate(p.paidAt ?? p.createdAt) },
            ]}
          />
        </div>
      </Card>
    </>
  );
}
