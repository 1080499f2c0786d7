// GET /api/portal/{organizationId}/contact — the policyholder's phone and SMS choice; PUT — change them (the operation pipeline: src/server/operations/)
import { handleAppRequest } from "@/server/operations/pipeline";

export const dynamic = "force-dynamic";

const handler = (request: Request) => handleAppRequest(request);
export { handler as GET, handler as PUT };
