import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/card";
import { OrganizationProfile } from "./_components/organization-profile";
import { SettingsForm } from "./_components/settings-form";

export const metadata: Metadata = { title: "Settings" };

export default function SettingsPage() {
  return (
    <>
      <PageHeader title="Settings" description="Your organization's profile, notifications and API limits." />
      <div className="space-y-6">
        <OrganizationProfile />
        <SettingsForm />
      </div>
    </>
  );
}
