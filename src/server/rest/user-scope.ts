// The /organizations… endpoints act as the API key's creator, with the
// creator's role — but only on the key's own organization (SPEC §2): another
// organization's id is a 404 whatever the creator's role there, and a test
// key reads what test and live share but never changes it. Only
// `GET /organizations`, `POST /organizations` (live keys) and the switch of
// the creator's dashboard organization reach beyond the key's organization.
import { assertCan, type Actor } from "@/server/actor";
import { keyActor, type AuthenticatedKey } from "@/server/api-keys/service";
import { notFound } from "@/server/errors";

/**
 * The key's creator, who must still belong to the key's own organization:
 * authentication read their membership with the key, so a creator who has
 * left answers 403 `forbidden` here without another query.
 */
export function creatorOf(key: AuthenticatedKey): string {
  return keyActor(key).userId;
}

/** 403 for a test key creating an organization (the services refuse its other changes of the account: `assertCan(actor, "account")`). */
export function assertLiveKey(key: AuthenticatedKey): void {
  assertCan(keyActor(key), "account");
}

/** The key's own (live) organization, named by the path: any other id → 404. */
export function ownOrganization(key: AuthenticatedKey, organizationId: string): string {
  if (organizationId !== key.accountId) throw notFound("Organization");
  return organizationId;
}

/**
 * The key's actor (its creator's current role, its mode), on the key's own
 * organization only (404 for any other id). A test key's actor is in test
 * mode, so the services' `account` rule refuses its changes of the account.
 */
export function creatorActor(key: AuthenticatedKey, organizationId: string): Actor {
  ownOrganization(key, organizationId);
  return keyActor(key);
}
