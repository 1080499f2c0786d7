// POST /api/upload/<path> — the dashboard's multipart uploads, as the signed-in member
import { handleSessionUpload } from "@/server/rest/session-upload";

export const dynamic = "force-dynamic";

export const POST = (request: Request) => handleSessionUpload(request);
