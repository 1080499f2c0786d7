// GET /api/portal/{organizationId}/logo — the business's logo, public (it is on its portal and certificates) (the operation pipeline: src/server/operations/)
import { handleAppRequest } from "@/server/operations/pipeline";

export const dynamic = "force-dynamic";

const handler = (request: Request) => handleAppRequest(request);
export { handler as GET };
