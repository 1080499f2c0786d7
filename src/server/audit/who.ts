// The author of the audit entries a request writes, from whoever the pipeline
// authenticated: a key, a dashboard user, a policyholder; else the system.
import { clientIpOf } from "@/server/client-ip";
import type { Principal } from "@/server/operations/operation";
import type { AuditWho } from "./record";

export function auditorOfPrincipal(principal: Principal, request: { headers: Headers }, requestId: string | null): AuditWho | null {
  const where = { ipAddress: clientIpOf(request), requestId };
  switch (principal.auth) {
    case "apiKey":
      return { actorType: "api_key", actorId: principal.key.id, actorLabel: `API key ${principal.key.id}`, ...where };
    case "session":
      // A session in the dashboard may act as a key would: the actor carries the key when one acts.
      return principal.actor.apiKey
        ? { actorType: "api_key", actorId: principal.actor.apiKey.id, actorLabel: `API key ${principal.actor.apiKey.id}`, ...where }
        : { actorType: "user", actorId: principal.user.id, actorLabel: principal.user.email, ...where };
    case "user":
    case "platformAdmin":
      return { actorType: "user", actorId: principal.user.id, actorLabel: principal.user.email, ...where };
    case "portal":
      return { actorType: "policyholder", actorId: principal.holder.email, actorLabel: principal.holder.email, ...where };
    default:
      return null;
  }
}
