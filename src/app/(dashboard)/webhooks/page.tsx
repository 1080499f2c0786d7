import type { Metadata } from "next";
import { Card, EmptyState } from "@/components/ui/card";
import { currentSession } from "@/server/session/current";
import { WebhooksView } from "./_components/webhooks-view";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage() {
  const session = await currentSession();
  if (session?.member?.role === "MEMBER") {
    return (
      <Card>
        <EmptyState title="Only owners and admins manage webhooks" />
      </Card>
    );
  }
  return <WebhooksView />;
}
