// POST /api/portal/{organizationId}/session — sign in with the code; DELETE — sign out (the operation pipeline: src/server/operations/)
import { handleAppRequest } from "@/server/operations/pipeline";

export const dynamic = "force-dynamic";

const handler = (request: Request) => handleAppRequest(request);
export { handler as DELETE, handler as POST };
