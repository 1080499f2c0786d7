// The audit log as CSV (RFC 4180), built in the browser from the entries the
// filters match: every field quoted when it needs to be, a cell that a
// spreadsheet would run as a formula prefixed with a quote.
import type { AuditLogEntry } from "@/lib/schemas/audit";

const HEADER = [
  "time",
  "actor_type",
  "actor",
  "actor_id",
  "action",
  "resource_type",
  "resource_id",
  "ip_address",
  "request_id",
  "mode",
  "details",
];

function cell(value: string | null): string {
  let text = value ?? "";
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function auditCsv(entries: AuditLogEntry[]): string {
  const rows = entries.map((e) =>
    [
      e.createdAt,
      e.actor.type,
      e.actor.label,
      e.actor.id,
      e.action,
      e.resource.type,
      e.resource.id,
      e.ipAddress,
      e.requestId,
      e.livemode ? "live" : "test",
      JSON.stringify(e.details),
    ]
      .map(cell)
      .join(","),
  );
  return [HEADER.join(","), ...rows].join("\r\n") + "\r\n";
}
