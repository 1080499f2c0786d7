import { Badge } from "@/components/ui/card";
import type { AuditLogEntry } from "@/lib/schemas/audit";

export const ACTOR_TYPES = [
  { value: "user", label: "User", tone: "blue" },
  { value: "api_key", label: "API key", tone: "amber" },
  { value: "policyholder", label: "Policyholder", tone: "green" },
  { value: "system", label: "System", tone: "slate" },
] as const;

export function ActorBadge({ type }: { type: AuditLogEntry["actor"]["type"] }) {
  const kind = ACTOR_TYPES.find((t) => t.value === type) ?? ACTOR_TYPES[3];
  return <Badge tone={kind.tone}>{kind.label}</Badge>;
}
