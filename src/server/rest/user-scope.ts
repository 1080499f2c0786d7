// The /organizations… endpoints act as the API key's creator, on any
// organization that user belongs to, with the user's role there.
import { type Actor } from "@/server/actor";
import { keyActor, type AuthenticatedKey } from "@/server/api-keys/service";
import { actorForUser } from "@/server/organizations/service";

/**
 * The key's creator, who must still belong to the key's own organization:
 * authentication read their membership with the key, so a creator who has
 * left answers 403 `forbidden` here without another query.
 */
export function creatorOf(key: AuthenticatedKey): string {
  return keyActor(key).userId;
}

/** The creator's actor in another of their organizations (404 if they are not in it). */
export async function creatorActor(key: AuthenticatedKey, organizationId: string): Promise<Actor> {
  return actorForUser(creatorOf(key), organizationId, { id: key.id, permissions: key.permissions });
}
