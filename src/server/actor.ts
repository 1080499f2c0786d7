// Who is acting, whatever the transport: a dashboard session or an API key.
// Services take an Actor and check it with `assertCan`; adapters only build it.
import type { Role } from "@/generated/prisma/enums";
import { AppError } from "@/server/errors";

export type KeyPermission = "read" | "write";

export interface Actor {
  /** Whose data the actor works on: the organization, or its test twin in test mode. */
  organizationId: string;
  /**
   * The organization the actor belongs to (the live one): its team, settings,
   * API keys and profile are shared by both modes. Absent: organizationId.
   */
  accountId?: string;
  /** false in test mode (a test key, or the dashboard's test view). Absent: live. */
  livemode?: boolean;
  /** The signed-in user, or the user who created the API key. */
  userId: string;
  /** The user's CURRENT role in the organization (for a key: its creator's), so a key never outranks its creator. */
  role: Role;
  apiKey?: { id: string; permissions: KeyPermission[] };
}

/**
 * What an action needs:
 * - `read`: any member, any key;
 * - `manage`: policies and claims — any member, a `write` key;
 * - `admin`: team, API keys, settings, organization profile, money out,
 *   webhooks, KYB — ADMIN or OWNER, a `write` key;
 * - `admin-read`: reading the team (emails of members and invitees) —
 *   ADMIN or OWNER, any key;
 * - `account`: changing what test and live share (profile, settings, team,
 *   invitations, live keys) — `admin`, and never a test key (a test key is
 *   for integration work; it must not reach the live account).
 */
export type Capability = "read" | "manage" | "admin" | "admin-read" | "account";

/** What the actor may do, for the dashboard to show only what the server will accept. */
export interface Capabilities {
  manage: boolean;
  admin: boolean;
  adminRead: boolean;
}

/** The live organization: team, settings, API keys and the profile are kept there for both modes. */
export const accountOf = (actor: Actor): string => actor.accountId ?? actor.organizationId;

/** Live mode unless the actor is in test mode. */
export const isLive = (actor: Actor): boolean => actor.livemode !== false;

type KeyGrant = Pick<NonNullable<Actor["apiKey"]>, "permissions">;
const lacksWrite = (apiKey: KeyGrant | undefined) => !!apiKey && !apiKey.permissions.includes("write");
const needsWrite = () => new AppError("insufficient_permissions", "This API key needs the `write` permission for this request");

/** The key's own limit, checked by the REST adapter before the body is read: without `write` it may only read. */
export function assertKeyPermits(apiKey: KeyGrant | undefined, needs: KeyPermission): void {
  if (needs === "write" && lacksWrite(apiKey)) throw needsWrite();
}

/** The one rule: why the actor may not, or null. */
function refusal(actor: Actor, capability: Capability): AppError | null {
  if (capability === "read") return null;
  if (capability === "admin-read") {
    return actor.role === "MEMBER" ? new AppError("forbidden", "Only an organization's owner or admins can see its team") : null;
  }
  if (lacksWrite(actor.apiKey)) return needsWrite();
  if (capability === "account" && actor.apiKey && !isLive(actor)) {
    return new AppError("forbidden", "Test keys cannot change the live account");
  }
  if ((capability === "admin" || capability === "account") && actor.role === "MEMBER") {
    return new AppError("forbidden", "Only an organization's owner or admins can do this");
  }
  return null;
}

export const can = (actor: Actor, capability: Capability): boolean => refusal(actor, capability) === null;

export function assertCan(actor: Actor, capability: Capability): void {
  const refused = refusal(actor, capability);
  if (refused) throw refused;
}

export function capabilities(actor: Actor): Capabilities {
  return { manage: can(actor, "manage"), admin: can(actor, "admin"), adminRead: can(actor, "admin-read") };
}
