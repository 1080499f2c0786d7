// The /organizations endpoints act as the key's creator, with the creator's
// role, on the key's own organization only (another id → 404); the list and
// the switch of the dashboard's organization cover all of the creator's
// organizations, and only live keys create one (see ../user-scope.ts).
import { z } from "@/lib/messages";
import { CreateOrganizationInput, Organization, OrganizationList, UpdateOrganizationInput } from "@/lib/schemas/organizations";
import {
  createOrganization,
  getOrganization,
  listOrganizations,
  switchOrganization,
  updateOrganization,
} from "@/server/organizations/service";
import { PageQuery } from "@/server/pagination";
import { endpoint } from "../endpoint";
import { assertLiveKey, creatorActor, creatorOf, ownOrganization } from "../user-scope";

const tag = "Organizations";
export const AccountParam = z.object({ accountID: z.string().min(1).max(100) });

export const organizationEndpoints = [
  // POST /api/v1/organizations — create an organization owned by the key's creator
  endpoint({
    method: "POST",
    path: "/organizations",
    operationId: "createOrganization",
    summary: "Create an organization",
    description: "Creates an organization with the key's creator as its OWNER. Live keys only (a test key → 403 `forbidden`).",
    tag,
    permission: "write",
    body: CreateOrganizationInput,
    response: Organization,
    status: 201,
    handler: ({ key, body }) => {
      assertLiveKey(key);
      return createOrganization(creatorOf(key), body);
    },
  }),
  // GET /api/v1/organizations — organizations of the key's creator
  endpoint({
    method: "GET",
    path: "/organizations",
    operationId: "listOrganizations",
    summary: "List the organizations of the key's creator",
    tag,
    permission: "read",
    query: PageQuery,
    response: OrganizationList,
    handler: ({ key, query }) => listOrganizations(creatorOf(key), query),
  }),
  // GET /api/v1/organizations/{accountID}
  endpoint({
    method: "GET",
    path: "/organizations/{accountID}",
    operationId: "getOrganization",
    summary: "Get an organization",
    description: "The key's own organization; any other id → 404.",
    tag,
    permission: "read",
    params: AccountParam,
    response: Organization,
    handler: ({ key, params }) => getOrganization(creatorOf(key), ownOrganization(key, params.accountID)),
  }),
  // PUT /api/v1/organizations/{accountID} — change the profile (ADMIN or OWNER)
  endpoint({
    method: "PUT",
    path: "/organizations/{accountID}",
    operationId: "updateOrganization",
    summary: "Update an organization",
    description:
      "Changes the key's own organization (ADMIN or OWNER); any other id → 404, whatever the creator's role there. A test key → 403 `forbidden`.",
    tag,
    permission: "write",
    params: AccountParam,
    body: UpdateOrganizationInput,
    response: Organization,
    handler: async ({ key, params, body }) =>
      updateOrganization(creatorActor(key, params.accountID), body),
  }),
  // POST /api/v1/organizations/{accountID}/switch — set the creator's active organization
  endpoint({
    method: "POST",
    path: "/organizations/{accountID}/switch",
    operationId: "switchOrganization",
    summary: "Switch the active organization",
    description:
      "Sets the organization the key creator's dashboard opens next. The API key itself stays bound to its own organization.",
    tag,
    permission: "write",
    params: AccountParam,
    response: Organization,
    handler: ({ key, params }) => switchOrganization(creatorOf(key), params.accountID),
  }),
];
