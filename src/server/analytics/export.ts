// GET /business/analytics/export: a streamed CSV (RFC 4180) or xlsx file.
import type { Actor } from "@/server/actor";
import type { ExportQuery } from "./schemas";

export async function exportAnalytics(_actor: Actor, _query: ExportQuery, _now = new Date()): Promise<Response> {
  throw new Error("not implemented");
}
