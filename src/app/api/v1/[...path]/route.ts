// Mounts the REST API (the operation pipeline, src/server/operations/pipeline.ts) on /api/v1 under `next dev`; in
// production the HTTP server answers /api/v1/ itself (src/server/http-guard.ts), and the API root `/api/v1` is a 404
// there and here alike. Shutdown waits for every request, counted at the HTTP server.
import { handleRestRequest } from "@/server/operations/pipeline";

export const dynamic = "force-dynamic";

const handler = (request: Request) => handleRestRequest(request);

export {
  handler as DELETE,
  handler as GET,
  handler as HEAD,
  handler as OPTIONS,
  handler as PATCH,
  handler as POST,
  handler as PUT,
};
