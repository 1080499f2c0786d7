import { getAuth } from "@/server/auth";
import { withClientIp } from "@/server/client-ip";

export const dynamic = "force-dynamic";

// better-auth sees the client address resolved from the socket and TRUSTED_PROXIES, never a raw forwarded header.
const handler = (request: Request) => getAuth().handler(withClientIp(request));
export { handler as GET, handler as POST };
