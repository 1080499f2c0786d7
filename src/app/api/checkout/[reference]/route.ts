// POST /api/checkout/{reference} — the hosted checkout's card form pays a sandbox payment (the operation pipeline: src/server/operations/)
import { handleAppRequest } from "@/server/operations/pipeline";

export const dynamic = "force-dynamic";

const handler = (request: Request) => handleAppRequest(request);
export { handler as POST };
