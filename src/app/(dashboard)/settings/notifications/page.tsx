import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/card";
import { currentSession } from "@/server/session/current";
import { ReadOnlyNotice } from "../../_components/me";
import { SettingsNav } from "../_components/settings-nav";
import { PhoneCard } from "./_components/phone-card";
import { TemplatesCard } from "./_components/templates-card";

export const metadata: Metadata = { title: "Notifications" };

export default async function NotificationsPage() {
  const session = await currentSession();
  return (
    <>
      <PageHeader
        title="Notifications"
        description="Your phone for SMS alerts, and the words of the emails and text messages your policyholders receive."
      />
      <SettingsNav current="/settings/notifications" />
      <div className="space-y-6">
        <PhoneCard />
        {!session?.me?.can.admin && (
          <ReadOnlyNotice>
            Only owners and admins change the messages to policyholders: you see them read-only. Your own phone is yours to
            set.
          </ReadOnlyNotice>
        )}
        <TemplatesCard />
      </div>
    </>
  );
}
