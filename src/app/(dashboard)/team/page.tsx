import type { Metadata } from "next";
import { Card, EmptyState } from "@/components/ui/card";
import { currentSession } from "@/server/session/current";
import { TeamView } from "./_components/team-view";

export const metadata: Metadata = { title: "Team" };

export default async function TeamPage() {
  const session = await currentSession();
  if (!session?.me?.can.adminRead) {
    return (
      <Card>
        <EmptyState
          title="Only owners and admins manage the team"
          description="Ask an admin of your organization if you need someone added."
        />
      </Card>
    );
  }
  return <TeamView currentUserId={session?.user.id ?? ""} />;
}
