import type { Metadata } from "next";
import type { CSSProperties, ReactNode } from "react";
import { ShieldCheck } from "lucide-react";
import Link from "next/link";
import { accentColors } from "@/server/organizations/accent";
import { portalContext } from "./_components/session";
import { SignOutButton } from "./_components/sign-out-button";

export const metadata: Metadata = { title: "Policyholder portal", robots: { index: false } };
export const dynamic = "force-dynamic";

export default async function PortalLayout({ children, params }: { children: ReactNode; params: Promise<{ organizationId: string }> }) {
  const { organizationId } = await params;
  const { business, session } = await portalContext(organizationId);
  const { accent, onAccent } = accentColors(business.accentColor);
  const style = { "--portal-accent": accent, "--portal-on-accent": onAccent } as CSSProperties;
  return (
    <div style={style} className="flex min-h-screen flex-col bg-slate-50">
      <header className="bg-[var(--portal-accent)] text-[var(--portal-on-accent)]">
        <div className="mx-auto flex max-w-4xl items-center justify-between gap-3 px-4 py-3">
          <Link href={`/portal/${organizationId}`} className="flex min-w-0 items-center gap-3">
            {business.logo ? (
              // eslint-disable-next-line @next/next/no-img-element -- served by our own route, any size the business uploaded
              <img
                src={`/api/portal/${organizationId}/logo`}
                alt=""
                className="h-9 w-9 shrink-0 rounded bg-white object-contain p-0.5"
              />
            ) : (
              <ShieldCheck className="h-7 w-7 shrink-0" aria-hidden />
            )}
            <span className="min-w-0">
              <span className="block truncate font-semibold" data-testid="portal-business">
                {business.name}
              </span>
              <span className="block text-xs opacity-90">Policyholder portal</span>
            </span>
          </Link>
          {session && <SignOutButton organizationId={organizationId} email={session.email} />}
        </div>
      </header>
      {!business.livemode && (
        <div role="note" className="border-b-2 border-amber-500 bg-amber-100 px-4 py-2 text-center text-sm text-amber-950">
          <strong>Test mode</strong> — test cover only: nothing here is real insurance.
        </div>
      )}
      <main className="mx-auto w-full max-w-4xl flex-1 px-4 py-8">{children}</main>
      <footer className="px-4 pb-6 text-center text-xs text-slate-600">
        {business.name} serves its policyholders with Coverdesk.
      </footer>
    </div>
  );
}
