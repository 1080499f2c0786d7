// DELETE /api/portal/{organizationId}/coverages/{coverageId}/card — remove the saved card (the operation pipeline: src/server/operations/)
import { handleAppRequest } from "@/server/operations/pipeline";

export const dynamic = "force-dynamic";

const handler = (request: Request) => handleAppRequest(request);
export { handler as DELETE };
