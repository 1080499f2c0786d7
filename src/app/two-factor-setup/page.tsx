import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { Logo } from "@/components/logo";
import { SignOutButton } from "@/components/sign-out-button";
import { currentSession } from "@/server/session/current";
import { TwoFactorCard } from "@/app/(dashboard)/account/security/_components/two-factor-card";

export const metadata: Metadata = { title: "Set up two-factor sign-in" };
export const dynamic = "force-dynamic";

// Where a member lands while their organization requires two-factor sign-in and they have none:
// the dashboard sends every page here, and its API refuses them, until they set it up.
export default async function TwoFactorSetupPage() {
  const session = await currentSession();
  if (!session) redirect("/sign-in");
  if (!session.mustEnrol) redirect("/");
  const organization = session.member ? await organizationName(session.member.organizationId) : null;
  return (
    <main className="flex min-h-screen flex-col items-center px-4 py-10">
      <div className="flex w-full max-w-2xl items-center justify-between gap-4">
        <Logo />
        <div className="flex min-w-0 items-center gap-3 text-sm text-slate-600">
          <span className="hidden truncate sm:inline">{session.user.email}</span>
          <SignOutButton />
        </div>
      </div>
      <div className="mt-8 w-full max-w-2xl space-y-4">
        <div>
          <h1 className="text-xl font-semibold text-slate-900">Set up two-factor sign-in</h1>
          <p className="mt-1 text-sm text-slate-600">
            {organization ? <strong className="font-medium text-slate-800">{organization}</strong> : "Your organization"} asks
            every member to sign in with a code from an authenticator app as well as their password. Set it up to open the
            dashboard.
          </p>
        </div>
        <TwoFactorCard enabled={false} email={session.user.email} doneHref="/" />
      </div>
    </main>
  );
}

async function organizationName(id: string): Promise<string | null> {
  const { db } = await import("@/server/db/client");
  const org = await db.organization.findUnique({ where: { id }, select: { name: true } });
  return org?.name ?? null;
}
