// GET /api/portal/{organizationId}/coverages/{coverageId}/cancellation-quote — what cancelling would refund (the operation pipeline: src/server/operations/)
import { handleAppRequest } from "@/server/operations/pipeline";

export const dynamic = "force-dynamic";

const handler = (request: Request) => handleAppRequest(request);
export { handler as GET };
