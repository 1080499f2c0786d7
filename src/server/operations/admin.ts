// Platform administration for the /admin pages: the KYB review queue and the
// decisions, and every organization's payouts. Anyone but a platform admin gets 404.
import { KybQueueInput, KybQueuePage, KybReview, OrganizationRef } from "@/lib/schemas/admin";
import { PayoutItem, PayoutRef, PayoutsInput, PayoutsPage } from "@/lib/schemas/admin-payouts";
import { Kyb, RejectKybInput } from "@/lib/schemas/kyb";
import { listPayouts, retryPayout } from "@/server/admin/payouts";
import { approveKyb, kybQueue, kybReview, rejectKyb } from "@/server/admin/service";
import { operation } from "./operation";

export const adminOperations = [
  operation({
    name: "admin.kybQueue",
    auth: ["platformAdmin"],
    permission: "read",
    kind: "query",
    input: KybQueueInput,
    output: KybQueuePage,
    dashboard: true,
    handler: ({ admin, input }) => kybQueue(admin, input),
  }),
  operation({
    name: "admin.kybReview",
    auth: ["platformAdmin"],
    permission: "read",
    kind: "query",
    input: OrganizationRef,
    output: KybReview,
    dashboard: true,
    handler: ({ admin, input }) => kybReview(admin, input.organizationId),
  }),
  operation({
    name: "admin.approveKyb",
    auth: ["platformAdmin"],
    permission: "write",
    kind: "mutation",
    input: OrganizationRef,
    output: Kyb,
    dashboard: true,
    handler: ({ admin, input }) => approveKyb(admin, input.organizationId),
  }),
  operation({
    name: "admin.rejectKyb",
    auth: ["platformAdmin"],
    permission: "write",
    kind: "mutation",
    input: RejectKybInput,
    output: Kyb,
    dashboard: true,
    handler: ({ admin, input }) => rejectKyb(admin, input),
  }),
  operation({
    name: "admin.payouts",
    auth: ["platformAdmin"],
    permission: "read",
    kind: "query",
    input: PayoutsInput,
    output: PayoutsPage,
    dashboard: true,
    handler: ({ admin, input }) => listPayouts(admin, input),
  }),
  operation({
    name: "admin.retryPayout",
    auth: ["platformAdmin"],
    permission: "write",
    kind: "mutation",
    input: PayoutRef,
    output: PayoutItem,
    dashboard: true,
    handler: ({ admin, input }) => retryPayout(admin, input.id),
  }),
] as const;
