import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/card";
import { currentSession } from "@/server/session/current";
import { ReadOnlyNotice } from "../_components/me";
import { BrandingCard } from "./_components/branding-card";
import { CancellationsCard } from "./_components/cancellations-card";
import { OrganizationProfile } from "./_components/organization-profile";
import { PortalCard } from "./_components/portal-card";
import { RemindersCard } from "./_components/reminders-card";
import { SettingsNav } from "./_components/settings-nav";
import { SettingsForm } from "./_components/settings-form";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const session = await currentSession();
  return (
    <>
      <PageHeader
        title="Settings"
        description="Your organization's profile, policyholder portal, branding, renewal reminders, cancellations, notifications and API limits."
      />
      <SettingsNav current="/settings" />
      <div className="space-y-6">
        {!session?.me?.can.admin && (
          <ReadOnlyNotice>
            Only owners and admins change these settings. You can see them; ask an admin for a change.
          </ReadOnlyNotice>
        )}
        <OrganizationProfile />
        <PortalCard />
        <BrandingCard />
        <RemindersCard />
        <CancellationsCard />
        <SettingsForm />
      </div>
    </>
  );
}
