// The audit log: who changed what, for the organization's owner and admins (REST and dashboard).
import { AuditLogList, ListAuditLogsQuery } from "@/lib/schemas/audit";
import { listAuditLogs } from "@/server/audit/service";
import { operation } from "./operation";

export const auditOperations = [
  // GET /api/v1/business/audit-logs
  operation({
    name: "auditLogs.list",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    input: ListAuditLogsQuery,
    output: AuditLogList,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/business/audit-logs",
      operationId: "listAuditLogs",
      summary: "List the audit log",
      description:
        "Who changed what in the organization — a user, an API key, a policyholder or Coverdesk itself — newest first, live and test mode together (`livemode`). Each entry is written in the same transaction as the change it records and can never be changed or deleted. Owners and admins only (a member's key: 403). Filters: `action` (exact, or a prefix ending in a dot such as `api_key.`), `actorType`, `actorId`, `resourceType`, `resourceId`, `from` and `to` (dates or date-times).",
      tag: "Audit log",
      query: ListAuditLogsQuery,
    },
    handler: ({ actor, input }) => listAuditLogs(actor, input),
  }),
] as const;
