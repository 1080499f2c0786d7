import type { Metadata } from "next";
import { Card, EmptyState } from "@/components/ui/card";
import { currentSession } from "@/server/session/current";
import { AuditLogView } from "./_components/audit-log-view";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditLogPage() {
  const session = await currentSession();
  if (!session?.me?.can.adminRead) {
    return (
      <Card>
        <EmptyState
          title="Only owners and admins read the audit log"
          description="Ask an admin of your organization if you need to know who changed something."
        />
      </Card>
    );
  }
  return <AuditLogView />;
}
