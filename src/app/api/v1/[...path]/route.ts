// Mounts the framework-free REST adapter (src/server/rest) on /api/v1.
import { tracked } from "@/server/lifecycle";
import { handleRestRequest } from "@/server/rest/handler";

export const dynamic = "force-dynamic";

const handler = (request: Request) => tracked(() => handleRestRequest(request));

export {
  handler as DELETE,
  handler as GET,
  handler as HEAD,
  handler as OPTIONS,
  handler as PATCH,
  handler as POST,
  handler as PUT,
};
