import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { Logo } from "@/components/logo";
import { SignOutButton } from "@/components/sign-out-button";
import { currentSession } from "@/server/session/current";
import { OnboardingForm } from "./onboarding-form";

export const metadata: Metadata = { title: "Create your organization" };
export const dynamic = "force-dynamic";

export default async function OnboardingPage() {
  const session = await currentSession();
  if (!session) redirect("/sign-in");
  if (session.member) redirect("/");
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-10">
      <div className="flex w-full max-w-lg items-center justify-between gap-4">
        <Logo />
        <div className="flex min-w-0 items-center gap-3 text-sm text-slate-600">
          <span className="hidden truncate sm:inline">{session.user.email}</span>
          <SignOutButton />
        </div>
      </div>
      <div className="mt-8 w-full max-w-lg rounded-lg border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-xl font-semibold">Create your organization</h1>
        <p className="mb-6 mt-1 text-sm text-slate-600">You are not part of any organization yet. Create one to continue.</p>
        <OnboardingForm email={session.user.email} />
      </div>
    </main>
  );
}
