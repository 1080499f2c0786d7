// POST /api/portal/{organizationId}/claims — file a claim with up to 5 attachments (multipart) (the operation pipeline: src/server/operations/)
import { handleAppRequest } from "@/server/operations/pipeline";

export const dynamic = "force-dynamic";

const handler = (request: Request) => handleAppRequest(request);
export { handler as POST };
