import { Card } from "@/components/ui/card";
import { portalOverview } from "@/server/portal/service";
import { ContactPreferences } from "./_components/contact-preferences";
import { PortalSignIn } from "./_components/sign-in";
import { portalContext } from "./_components/session";
import { ClaimsList, CoverageCard, PaymentsList, Section } from "./_components/views";

export const dynamic = "force-dynamic";

export default async function PortalHome({ params }: { params: Promise<{ organizationId: string }> }) {
  const { organizationId } = await params;
  const { business, session } = await portalContext(organizationId);
  if (!session) return <PortalSignIn organizationId={organizationId} businessName={business.name} />;
  const { coverages, payments, claims } = await portalOverview(session);
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Your cover with {business.name}</h1>
      <p className="mt-1 text-sm text-slate-600">
        Download a certificate, renew before your cover ends, or make a claim from a coverage&apos;s page.
      </p>
      <Section title="Coverages" testId="portal-coverages">
        {coverages.length === 0 ? (
          <Card className="p-6 text-sm text-slate-600">You have no cover with {business.name} under this email.</Card>
        ) : (
          <div className="grid gap-4 sm:grid-cols-2">
            {coverages.map((c) => (
              <CoverageCard key={c.id} organizationId={organizationId} coverage={c} />
            ))}
          </div>
        )}
      </Section>
      <Section title="Claims" testId="portal-claims">
        <Card>
          <ClaimsList organizationId={organizationId} claims={claims} />
        </Card>
      </Section>
      <Section title="Payments and receipts" testId="portal-payments">
        <Card>
          <PaymentsList organizationId={organizationId} payments={payments} />
        </Card>
      </Section>
      <Section title="Contact preferences" testId="portal-contact-section">
        <ContactPreferences organizationId={organizationId} businessName={business.name} />
      </Section>
    </>
  );
}
