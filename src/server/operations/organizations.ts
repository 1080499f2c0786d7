// Organizations. The REST entries act as the key's creator, with the creator's
// role, on the key's own organization only (another id → 404); the list and
// the switch of the dashboard's organization cover all of the creator's
// organizations, and only live keys create one (see rest/user-scope.ts). The
// dashboard's entries act as the signed-in user.
import { z } from "@/lib/messages";
import { accountOf, capabilities, isLive } from "@/server/actor";
import { isPlatformAdmin } from "@/server/admin/service";
import {
  CreateOrganizationInput,
  Me,
  Organization,
  OrganizationList,
  UpdateOrganizationInput,
} from "@/lib/schemas/organizations";
import {
  createOrganization,
  currencyLock,
  getOrganization,
  listOrganizations,
  setDashboardMode,
  switchOrganization,
  updateOrganization,
} from "@/server/organizations/service";
import { SetTwoFactorRequirementInput, TwoFactorRequirement } from "@/lib/schemas/two-factor";
import { setTwoFactorRequirement, twoFactorRequirement } from "@/server/organizations/two-factor-requirement";
import { PageQuery } from "@/server/pagination";
import { assertLiveKey, creatorActor, creatorOf, ownOrganization } from "@/server/rest/user-scope";
import { operation } from "./operation";

const tag = "Organizations";
export const AccountParam = z.object({ accountID: z.string().min(1).max(100) });

export const organizationOperations = [
  // POST /api/v1/organizations — create an organization owned by the key's creator
  operation({
    name: "organizations.createOrganization",
    auth: ["apiKey"],
    permission: "write",
    kind: "mutation",
    output: Organization,
    rest: {
      method: "POST",
      path: "/organizations",
      operationId: "createOrganization",
      summary: "Create an organization",
      description: "Creates an organization with the key's creator as its OWNER. Live keys only (a test key → 403 `forbidden`).",
      tag,
      body: CreateOrganizationInput,
      status: 201,
    },
    handler: ({ key, input }) => {
      assertLiveKey(key);
      return createOrganization(creatorOf(key), input);
    },
  }),
  // GET /api/v1/organizations — organizations of the key's creator
  operation({
    name: "organizations.listOrganizations",
    auth: ["apiKey"],
    permission: "read",
    kind: "query",
    output: OrganizationList,
    rest: {
      method: "GET",
      path: "/organizations",
      operationId: "listOrganizations",
      summary: "List the organizations of the key's creator",
      tag,
      query: PageQuery,
    },
    handler: ({ key, input }) => listOrganizations(creatorOf(key), input),
  }),
  // GET /api/v1/organizations/{accountID}
  operation({
    name: "organizations.getOrganization",
    auth: ["apiKey"],
    permission: "read",
    kind: "query",
    output: Organization,
    rest: {
      method: "GET",
      path: "/organizations/{accountID}",
      operationId: "getOrganization",
      summary: "Get an organization",
      description: "The key's own organization; any other id → 404.",
      tag,
      params: AccountParam,
    },
    handler: ({ key, input }) => getOrganization(creatorOf(key), ownOrganization(key, input.accountID)),
  }),
  // PUT /api/v1/organizations/{accountID} — change the profile (ADMIN or OWNER)
  operation({
    name: "organizations.updateOrganization",
    auth: ["apiKey"],
    permission: "write",
    kind: "mutation",
    output: Organization,
    rest: {
      method: "PUT",
      path: "/organizations/{accountID}",
      operationId: "updateOrganization",
      summary: "Update an organization",
      description:
        "Changes the key's own organization (ADMIN or OWNER); any other id → 404, whatever the creator's role there. A test key → 403 `forbidden`.",
      tag,
      params: AccountParam,
      body: UpdateOrganizationInput,
    },
    handler: ({ key, input: { accountID, ...data } }) => updateOrganization(creatorActor(key, accountID), data),
  }),
  // POST /api/v1/organizations/{accountID}/switch — set the creator's active organization
  operation({
    name: "organizations.switchOrganization",
    auth: ["apiKey"],
    permission: "write",
    kind: "mutation",
    output: Organization,
    rest: {
      method: "POST",
      path: "/organizations/{accountID}/switch",
      operationId: "switchOrganization",
      summary: "Switch the active organization",
      description:
        "Sets the organization the key creator's dashboard opens next. The API key itself stays bound to its own organization.",
      tag,
      params: AccountParam,
    },
    handler: ({ key, input }) => switchOrganization(creatorOf(key), input.accountID),
  }),

  // The dashboard
  operation({
    name: "organizations.list",
    auth: ["user"],
    permission: "read",
    kind: "query",
    output: OrganizationList,
    dashboard: true,
    handler: ({ user }) => listOrganizations(user.id, { limit: 100 }),
  }),
  // The live organization in both modes: its profile is shared.
  operation({
    name: "organizations.current",
    auth: ["session"],
    permission: "read",
    kind: "query",
    output: Organization,
    dashboard: true,
    handler: ({ user, actor }) => getOrganization(user.id, accountOf(actor)),
  }),
  /** The user's role in the active organization and what it lets them do: the dashboard shows only that. */
  operation({
    name: "organizations.me",
    auth: ["session"],
    permission: "read",
    kind: "query",
    output: Me,
    dashboard: true,
    handler: async ({ user, actor }) => ({
      role: actor.role,
      can: capabilities(actor),
      platformAdmin: await isPlatformAdmin(user.id),
      livemode: isLive(actor),
    }),
  }),
  /** Test mode on or off for this user: the dashboard then shows the test twin's data. */
  operation({
    name: "organizations.setMode",
    auth: ["user"],
    permission: "write",
    kind: "mutation",
    input: z.strictObject({ livemode: z.boolean() }),
    output: z.object({ livemode: z.boolean() }),
    dashboard: true,
    handler: async ({ user, input }) => ({ livemode: await setDashboardMode(user.id, input.livemode) }),
  }),
  /** Why the currency can no longer change (null while it can), for the profile form. */
  operation({
    name: "organizations.currencyLock",
    auth: ["session"],
    permission: "read",
    kind: "query",
    output: z.object({ reason: z.string().nullable() }),
    dashboard: true,
    handler: async ({ actor }) => ({ reason: await currencyLock(actor) }),
  }),
  operation({
    name: "organizations.create",
    auth: ["user"],
    permission: "write",
    kind: "mutation",
    input: CreateOrganizationInput,
    output: Organization,
    dashboard: true,
    handler: ({ user, input }) => createOrganization(user.id, input),
  }),
  operation({
    name: "organizations.update",
    auth: ["session"],
    permission: "write",
    kind: "mutation",
    input: UpdateOrganizationInput,
    output: Organization,
    dashboard: true,
    handler: ({ actor, input }) => updateOrganization(actor, input),
  }),
  operation({
    name: "organizations.switch",
    auth: ["user"],
    permission: "write",
    kind: "mutation",
    input: z.object({ organizationId: z.string().min(1) }),
    output: Organization,
    dashboard: true,
    handler: ({ user, input }) => switchOrganization(user.id, input.organizationId),
  }),
  // The two-factor requirement (team page): every member signs in with two factors. The dashboard's only.
  operation({
    name: "security.twoFactorRequirement",
    auth: ["session"],
    permission: "read",
    kind: "query",
    output: TwoFactorRequirement,
    dashboard: true,
    handler: ({ actor }) => twoFactorRequirement(actor),
  }),
  operation({
    name: "security.setTwoFactorRequirement",
    auth: ["session"],
    permission: "write",
    recentAuth: true,
    kind: "mutation",
    input: SetTwoFactorRequirementInput,
    output: TwoFactorRequirement,
    dashboard: true,
    handler: ({ actor, input }) => setTwoFactorRequirement(actor, input.required),
  }),
] as const;
