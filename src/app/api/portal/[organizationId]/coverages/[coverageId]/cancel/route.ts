// POST /api/portal/{organizationId}/coverages/{coverageId}/cancel — the policyholder cancels (the operation pipeline: src/server/operations/)
import { handleAppRequest } from "@/server/operations/pipeline";

export const dynamic = "force-dynamic";

const handler = (request: Request) => handleAppRequest(request);
export { handler as POST };
