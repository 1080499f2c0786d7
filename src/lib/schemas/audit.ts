import { z } from "@/lib/messages";
import { pageOf, PageQuery } from "@/lib/schemas/pagination";

import { When } from "@/lib/schemas/when";

export const ListAuditLogsQuery = PageQuery.extend({
  action: z.string().trim().max(100).optional().describe("An exact action, e.g. api_key.created, or a resource's prefix, e.g. api_key."),
  actorType: z.enum(["user", "api_key", "policyholder", "system"]).optional(),
  actorId: z.string().trim().max(254).optional().describe("A user's id, a key's id, a policyholder's email"),
  resourceType: z.string().trim().max(100).optional(),
  resourceId: z.string().trim().max(200).optional(),
  from: When.optional().describe("Entries at or after this day or instant"),
  to: When.optional().describe("Entries before the end of this day, or before this instant"),
});
export type ListAuditLogsQuery = z.output<typeof ListAuditLogsQuery>;

export const AuditLogEntry = z
  .object({
    id: z.string(),
    action: z.string(),
    actor: z.object({
      type: z.enum(["user", "api_key", "policyholder", "system"]),
      id: z.string(),
      label: z.string().describe("The user's email, the key's name and prefix, the policyholder's email, or Coverdesk"),
    }),
    resource: z.object({ type: z.string(), id: z.string().nullable() }),
    details: z.record(z.string(), z.unknown()),
    ipAddress: z.string().nullable(),
    requestId: z.string().nullable(),
    livemode: z.boolean(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "AuditLogEntry" });
export type AuditLogEntry = z.infer<typeof AuditLogEntry>;
export const AuditLogList = pageOf(AuditLogEntry, "AuditLogList");
