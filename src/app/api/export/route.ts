// GET /api/export — the dashboard's analytics export (a file), as the signed-in member (the operation pipeline)
import { handleAppRequest } from "@/server/operations/pipeline";

export const dynamic = "force-dynamic";

export const GET = (request: Request) => handleAppRequest(request);
