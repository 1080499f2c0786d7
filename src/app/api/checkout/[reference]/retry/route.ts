// POST /api/checkout/{reference}/retry — a new payment, with the same provider, after a failed one (the operation pipeline: src/server/operations/)
import { handleAppRequest } from "@/server/operations/pipeline";

export const dynamic = "force-dynamic";

const handler = (request: Request) => handleAppRequest(request);
export { handler as POST };
