import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/card";
import { AccountNav } from "../_components/account-nav";
import { DevicesCard } from "./_components/devices-card";
import { NameCard } from "./_components/name-card";
import { SignInsCard } from "./_components/sign-ins-card";

export const metadata: Metadata = { title: "Your profile" };

export default function ProfilePage() {
  return (
    <>
      <PageHeader
        title="Your profile"
        description="Your name as your team and invitations show it, the devices signed in to your account and its sign-in history."
      />
      <AccountNav current="/account/profile" />
      <div className="space-y-6">
        <NameCard />
        <DevicesCard />
        <SignInsCard />
      </div>
    </>
  );
}
