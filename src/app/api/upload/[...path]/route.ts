// POST /api/upload/<path> — the dashboard's multipart uploads, as the signed-in member (the operation pipeline)
import { handleAppRequest } from "@/server/operations/pipeline";

export const dynamic = "force-dynamic";

export const POST = (request: Request) => handleAppRequest(request);
