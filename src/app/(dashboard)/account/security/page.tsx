import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/card";
import { currentSession } from "@/server/session/current";
import { AccountNav } from "../_components/account-nav";
import { TwoFactorCard } from "./_components/two-factor-card";

export const metadata: Metadata = { title: "Security" };

export default async function SecurityPage() {
  const session = await currentSession();
  return (
    <>
      <PageHeader title="Security" description="How you sign in to Coverdesk." />
      <AccountNav current="/account/security" />
      <TwoFactorCard enabled={session?.user.twoFactorEnabled === true} email={session?.user.email ?? ""} />
    </>
  );
}
