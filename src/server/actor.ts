// Who is acting, whatever the transport: a dashboard session or an API key.
// Services take an Actor and check it with `assertCan`; adapters only build it.
import type { Role } from "@/generated/prisma/enums";
import { AppError } from "@/server/errors";

export type KeyPermission = "read" | "write";

export interface Actor {
  organizationId: string;
  /** The signed-in user, or the user who created the API key. */
  userId: string;
  /** The user's role in the organization; null for an API key on /business endpoints. */
  role: Role | null;
  apiKey?: { id: string; permissions: KeyPermission[] };
}

/**
 * What an action needs:
 * - `read`: any member, any key;
 * - `manage`: policies and claims — any member, a `write` key;
 * - `admin`: team, API keys, settings, organization profile, money out,
 *   webhooks, KYB — ADMIN or OWNER, a `write` key;
 * - `admin-read`: reading the team (emails of members and invitees) —
 *   ADMIN or OWNER, any key.
 */
export type Capability = "read" | "manage" | "admin" | "admin-read";

export function can(actor: Actor, capability: Capability): boolean {
  if (capability === "read") return true;
  if (capability === "admin-read") return actor.role !== "MEMBER";
  if (actor.apiKey && !actor.apiKey.permissions.includes("write")) return false;
  if (capability === "admin" && actor.role === "MEMBER") return false;
  return true;
}

export function assertCan(actor: Actor, capability: Capability): void {
  if (capability === "read") return;
  if (capability === "admin-read") {
    if (actor.role === "MEMBER") throw new AppError("forbidden", "Only an organization's owner or admins can see its team");
    return;
  }
  if (actor.apiKey && !actor.apiKey.permissions.includes("write")) {
    throw new AppError("insufficient_permissions", "This API key needs the `write` permission for this request");
  }
  if (capability === "admin" && actor.role === "MEMBER") {
    throw new AppError("forbidden", "Only an organization's owner or admins can do this");
  }
}
