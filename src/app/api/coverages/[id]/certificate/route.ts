// GET /api/coverages/{id}/certificate — a coverage's certificate of insurance (PDF), as the signed-in member (the operation pipeline)
import { handleAppRequest } from "@/server/operations/pipeline";

export const dynamic = "force-dynamic";

export const GET = (request: Request) => handleAppRequest(request);
