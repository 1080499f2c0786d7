// GET /api/portal/{organizationId}/files/{attachmentId} — an attachment of one of the policyholder's claims (the operation pipeline: src/server/operations/)
import { handleAppRequest } from "@/server/operations/pipeline";

export const dynamic = "force-dynamic";

const handler = (request: Request) => handleAppRequest(request);
export { handler as GET };
