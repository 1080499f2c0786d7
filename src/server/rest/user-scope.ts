// The /organizations… endpoints act as the API key's creator, on any
// organization that user belongs to, with the user's role there.
import { type Actor } from "@/server/actor";
import type { AuthenticatedKey } from "@/server/api-keys/service";
import { AppError } from "@/server/errors";
import { actorForUser, findMembership } from "@/server/organizations/service";

/** The key's creator, who must still belong to the key's own organization. */
export async function creatorOf(key: AuthenticatedKey): Promise<string> {
  try {
    await findMembership(key.createdById, key.organizationId);
  } catch {
    throw new AppError("forbidden", "The user who created this API key is no longer a member of its organization");
  }
  return key.createdById;
}

/** The creator's actor in another of their organizations (404 if they are not in it). */
export async function creatorActor(key: AuthenticatedKey, organizationId: string): Promise<Actor> {
  return actorForUser(await creatorOf(key), organizationId, { id: key.id, permissions: key.permissions });
}
