// /verify/<certificateNumber> — public: anyone holding a certificate of
// insurance (a landlord, a customs office, a client) checks whether it is valid
// today. It shows the business, the policy and the period, and nothing about
// the policyholder or money. Unknown and malformed numbers are the 404 page.
import { CircleCheck, CircleX } from "lucide-react";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { Logo } from "@/components/logo";
import { certificateDateTime, logoDataUri, verifyCertificate } from "@/server/coverages/certificate";

export const metadata: Metadata = {
  title: "Certificate verification",
  robots: { index: false, follow: false },
  referrer: "no-referrer",
};
export const dynamic = "force-dynamic";

export default async function VerifyPage({ params }: { params: Promise<{ number: string }> }) {
  const { number } = await params;
  const now = new Date();
  const certificate = await verifyCertificate(number, now);
  if (!certificate) notFound();
  const logo = await logoDataUri(certificate.business.logoFileId);
  const active = certificate.status === "active" || certificate.status === "past_due";
  const pastDue = certificate.status === "past_due";
  const type = `${certificate.policy.type[0]!.toUpperCase()}${certificate.policy.type.slice(1)} insurance`;

  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-10">
      <Logo />
      {!certificate.livemode && (
        <div
          role="note"
          data-testid="verify-test-banner"
          className="mt-6 w-full max-w-md rounded-lg border-2 border-amber-500 bg-amber-100 px-4 py-3 text-sm text-amber-950"
        >
          <p className="font-bold uppercase tracking-wide">Test certificate — not real cover</p>
          <p className="mt-1">It was issued in test mode: no insurance was bought and no one is covered by it.</p>
        </div>
      )}
      <div
        className="mt-8 w-full max-w-md overflow-hidden rounded-lg border border-t-4 border-slate-200 border-t-brand-600 bg-white shadow-sm"
        style={{ borderTopColor: certificate.business.accentColor ?? undefined }}
      >
        <div className="p-6 sm:p-8">
          <div className="flex items-center gap-3">
            {logo && (
              // eslint-disable-next-line @next/next/no-img-element -- an inline data: URI, not an optimizable URL
              <img src={logo} alt="" className="h-10 w-auto max-w-[6rem] shrink-0 object-contain" />
            )}
            <p className="min-w-0 break-words text-sm font-medium text-slate-700" data-testid="verify-business">
              {certificate.business.name}
            </p>
          </div>
          <h1 className="mt-4 text-xl font-semibold">Certificate of insurance</h1>
          <p className="mt-1 break-all font-mono text-sm text-slate-600" data-testid="verify-number">
            {certificate.certificateNumber}
          </p>

          <div
            role="status"
            data-testid="verify-status"
            data-status={certificate.status}
            className={`mt-5 flex items-start gap-3 rounded-md border px-4 py-3 ${
              active ? "border-emerald-300 bg-emerald-50 text-emerald-900" : "border-red-300 bg-red-50 text-red-900"
            }`}
          >
            {active ? (
              <CircleCheck className="mt-0.5 h-5 w-5 shrink-0" aria-hidden />
            ) : (
              <CircleX className="mt-0.5 h-5 w-5 shrink-0" aria-hidden />
            )}
            <div>
              <p className="font-semibold">
                {pastDue
                  ? "Valid — renewal payment due"
                  : active
                  ? "Valid — this certificate is active today"
                  : certificate.cancelledAt
                    ? `Cancelled on ${certificateDateTime(certificate.cancelledAt)}`
                    : `Expired on ${certificateDateTime(certificate.endsAt)}`}
              </p>
              <p className="mt-0.5 text-sm">
                {pastDue
                  ? `The period ended on ${certificateDateTime(certificate.endsAt)} and its renewal is not paid yet: the cover stays in force until ${certificateDateTime(certificate.graceEndsAt ?? certificate.endsAt)} while the payment is retried.`
                  : active
                  ? `The cover is in force until ${certificateDateTime(certificate.endsAt)}.`
                  : certificate.cancelledAt
                    ? "The cover it certifies was cancelled: it is not valid today."
                    : "The cover it certifies has ended: it is not valid today."}
              </p>
            </div>
          </div>

          <dl className="mt-6 divide-y divide-slate-100 border-y border-slate-100 text-sm">
            <Fact label="Business">{certificate.business.name}</Fact>
            <Fact label="Policy">{certificate.policy.name}</Fact>
            <Fact label="Type">{type}</Fact>
            <Fact label="Starts">{certificateDateTime(certificate.startsAt)}</Fact>
            <Fact label="Ends">{certificateDateTime(certificate.endsAt)}</Fact>
          </dl>
          <p className="mt-4 text-xs text-slate-600">Checked on {certificateDateTime(now)}.</p>
        </div>
      </div>
      <p className="mt-6 max-w-md text-center text-xs text-slate-600">
        Verified by Coverdesk from {certificate.business.name}&apos;s records. For the terms of the cover, ask the business.
      </p>
    </main>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 py-2.5 sm:flex-row sm:gap-4">
      <dt className="shrink-0 text-slate-600 sm:w-24">{label}</dt>
      <dd className="min-w-0 break-words font-medium text-slate-900">{children}</dd>
    </div>
  );
}
