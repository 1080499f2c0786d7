import { getAuth, guardAuthInput } from "@/server/auth";
import { withClientIp } from "@/server/client-ip";
import { counted } from "@/server/operations/busy";

export const dynamic = "force-dynamic";

// better-auth's per-IP limits (sign-in, sign-up, password reset) and session records see `clientIpOf`'s address —
// the TCP peer, or TRUSTED_PROXIES' forwarded one — under a per-process header name; never a header the client sent.
const handler = (request: Request) => getAuth().handler(withClientIp(request));
// Input better-auth would hand the database unchecked (NUL, invalid UTF-8) is refused first; what it throws answers problem+json.
const guarded = counted((request: Request) => guardAuthInput(request, handler));
export { guarded as GET, guarded as POST };
