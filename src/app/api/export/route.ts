// GET /api/export — the dashboard's analytics export (a file), as the signed-in member
import { handleSessionExport } from "@/server/analytics/session-export";

export const dynamic = "force-dynamic";

export const GET = (request: Request) => handleSessionExport(request);
