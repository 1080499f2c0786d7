// The /organizations… endpoints act as the API key's creator, with the
// creator's role — but only on the key's own organization (SPEC §2): another
// organization's id is a 404 whatever the creator's role there, and a test
// key reads what test and live share but never changes it. Only
// `GET /organizations`, `POST /organizations` (live keys) and the switch of
// the creator's dashboard organization reach beyond the key's organization.
import { type Actor } from "@/server/actor";
import { keyActor, type AuthenticatedKey } from "@/server/api-keys/service";
import { AppError, notFound } from "@/server/errors";
import { actorForUser } from "@/server/organizations/service";

/**
 * The key's creator, who must still belong to the key's own organization:
 * authentication read their membership with the key, so a creator who has
 * left answers 403 `forbidden` here without another query.
 */
export function creatorOf(key: AuthenticatedKey): string {
  return keyActor(key).userId;
}

/** 403 for a test key on a change of what test and live share (profile, team, invitations, new organizations). */
export function assertLiveKey(key: AuthenticatedKey): void {
  if (key.mode === "test") throw new AppError("forbidden", "Test keys cannot change the live account");
}

/** The key's own (live) organization, named by the path: any other id → 404. */
export function ownOrganization(key: AuthenticatedKey, organizationId: string): string {
  if (organizationId !== key.accountId) throw notFound("Organization");
  return organizationId;
}

/**
 * The creator's actor in the key's own organization (404 for any other id);
 * with `change`, a test key is refused (403) after that.
 */
export async function creatorActor(
  key: AuthenticatedKey,
  organizationId: string,
  { change = false }: { change?: boolean } = {},
): Promise<Actor> {
  ownOrganization(key, organizationId);
  if (change) assertLiveKey(key);
  return actorForUser(creatorOf(key), organizationId, { id: key.id, permissions: key.permissions });
}
