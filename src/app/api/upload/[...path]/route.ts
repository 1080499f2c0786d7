// POST /api/upload/<path> — the dashboard's multipart uploads, as the signed-in member
import { tracked } from "@/server/lifecycle";
import { handleSessionUpload } from "@/server/rest/session-upload";

export const dynamic = "force-dynamic";

export const POST = (request: Request) => tracked(() => handleSessionUpload(request));
