// POST /api/portal/{organizationId}/claims/{claimId}/payout-account — where the policyholder asks an approved claim to be paid (the operation pipeline: src/server/operations/)
import { handleAppRequest } from "@/server/operations/pipeline";

export const dynamic = "force-dynamic";

const handler = (request: Request) => handleAppRequest(request);
export { handler as POST };
