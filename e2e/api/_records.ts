// Real records of every kind a REST path parameter can name, made through the
// public API, keyed by the path template up to that parameter (see
// parameterKinds in ../support/openapi.ts). The security matrix and the fuzz
// suite use them; a new kind of path parameter needs a factory here.
import { unique } from "../support/api";
import { samplePdfPart } from "../support/files";
import { fileAnswer, uploadCertificate, uploadReceiptSample } from "./_files";
import { buyPolicy, createPolicyFor, joinTeam, listAll, ok, otherSide, type Receiver, type tenantWithClients } from "./_helpers";

export type Tenant = Awaited<ReturnType<typeof tenantWithClients>>;
export interface Made {
  /** The value to put in the path. */
  id: string;
  /** The record as its owner reads it, for before/after comparisons. */
  read: () => Promise<unknown>;
}
type Factory = (t: Tenant, ctx: { receiver: Receiver; make: (kind: string) => Promise<Made> }) => Promise<Made>;

const get = async (t: Tenant, path: string) => ok(await t.write.get(path.replace(/^\//, "")));
const findIn = async (t: Tenant, list: string, id: string, field = "id") => {
  const found = (await listAll<Record<string, unknown>>(t.write, list.replace(/^\//, ""))).find((r) => r[field] === id);
  if (!found) throw new Error(`${id} is not in ${list}`);
  return found;
};

/** Who builds the team's records: the tenant's own keys, or for a test tenant its live side (a test key never changes the team). */
const teamAdmin = async (t: Tenant) => (t.mode === "test" ? otherSide(t, "live") : t);

/**
 * Path parameters that name a thing every organization has (a notice's
 * template by its kind), not a record one organization owns: there is no
 * "another organization's" one to try (each organization's own is under the
 * same name), so the foreign-record checks skip them; an unknown name is a 404.
 */
export const NAMES_NOT_RECORDS = new Set(["/business/notification-templates/{kind}"]);

/** One factory per record kind a path parameter can name, keyed by the path template up to that parameter. */
export const factories: Record<string, Factory> = {
  "/organizations/{accountID}": async (t) => ({ id: t.organizationId, read: () => get(t, `/organizations/${t.organizationId}`) }),
  "/organizations/{accountID}/members/{memberId}": async (t) => {
    const { memberId } = await joinTeam(await teamAdmin(t), "MEMBER");
    return { id: memberId, read: () => findIn(t, `/organizations/${t.organizationId}/members`, memberId) };
  },
  "/organizations/{accountID}/invitations/{invitationId}": async (t) => {
    const inv = await ok(
      await (
        await teamAdmin(t)
      ).write.post(`organizations/${t.organizationId}/invite`, {
        data: { email: `m-${unique()}@example.test`, role: "MEMBER" },
      }),
      201,
    );
    return { id: inv.id, read: () => findIn(t, `/organizations/${t.organizationId}/invitations`, inv.id) };
  },
  "/business/api-keys/{id}": async (t) => {
    const k = await ok(
      // A key of the tenant's own mode (a test key may only make test keys).
      await t.write.post("business/api-keys", { data: { name: "matrix", permissions: ["read", "write"], mode: t.mode } }),
      201,
    );
    return { id: k.id, read: () => findIn(t, "/business/api-keys", k.id) };
  },
  "/business/policies/{id}": async (t) => {
    const p = await createPolicyFor(t.write);
    return { id: p.id, read: () => get(t, `/business/policies/${p.id}`) };
  },
  "/payments/verify/{reference}": async (t, { make }) => {
    const policy = await get(t, `/business/policies/${(await make("/business/policies/{id}")).id}`);
    const pay = await ok(
      await t.write.post("payments/initialize", {
        data: { amount: Number(policy.price), policyId: policy.id, email: `c-${unique()}@example.test` },
      }),
      201,
    );
    return { id: pay.reference, read: () => get(t, `/payments/verify/${pay.reference}`) };
  },
  "/payments/{reference}": async (t, { make }) => {
    // Paid, so that a refund getting through would show (in the payment and in the refunds).
    const policy = await get(t, `/business/policies/${(await make("/business/policies/{id}")).id}`);
    const paid = await buyPolicy(t.write, policy, `refundable-${unique()}@example.test`);
    return {
      id: paid.reference,
      read: async () => ({
        payment: await get(t, `/payments/verify/${paid.reference}`),
        refunds: await get(t, `/business/refunds?paymentReference=${encodeURIComponent(paid.reference)}`),
      }),
    };
  },
  "/business/coverages/{id}": async (t, { make }) => {
    const policy = await get(t, `/business/policies/${(await make("/business/policies/{id}")).id}`);
    const paid = await buyPolicy(t.write, policy, `holder-${unique()}@example.test`);
    return { id: paid.coverage.id, read: () => findIn(t, "/business/coverages", paid.coverage.id) };
  },
  "/business/payment-links/{id}": async (t, { make }) => {
    const policyId = (await make("/business/policies/{id}")).id;
    const l = await ok(await t.write.post("business/payment-links", { data: { policyId, name: "Matrix" } }), 201);
    return { id: l.id, read: () => get(t, `/business/payment-links/${l.id}`) };
  },
  "/claims/{id}": async (t, { make }) => {
    const policyId = (await make("/business/policies/{id}")).id;
    const c = await ok(
      await t.write.post("claims", { data: { policyId, type: "theft", description: "Stolen laptop", amount: 100 } }),
      201,
    );
    // With evidence attached, so that an attachment added, lost or changed by another key would show.
    await ok(await t.write.post(`claims/${c.id}/attachments`, { multipart: { file: samplePdfPart("evidence.pdf") } }), 201);
    return {
      id: c.id,
      read: async () => {
        const attachments = (await get(t, `/claims/${c.id}/attachments`)) as { data: { url: string }[] };
        return {
          claim: await get(t, `/claims/${c.id}`),
          payouts: await get(t, `/claims/${c.id}/payouts`),
          attachments,
          files: await Promise.all(attachments.data.map(async (a) => fileAnswer(await t.write.get(a.url)))),
        };
      },
    };
  },
  "/business/webhooks/{id}": async (t, { receiver }) => {
    const w = await ok(
      await t.write.post("business/webhooks", { data: { url: receiver.url, events: ["claim.submitted"] } }),
      201,
    );
    return { id: w.id, read: () => findIn(t, "/business/webhooks", w.id) };
  },
  "/business/customers/{id}": async (t, { make }) => {
    const policy = await get(t, `/business/policies/${(await make("/business/policies/{id}")).id}`);
    const email = `customer-${unique()}@example.test`;
    await buyPolicy(t.write, policy, email);
    const found = await ok(await t.write.get(`business/customers?q=${encodeURIComponent(email)}`));
    const id = found.data[0].id as string;
    return { id, read: () => get(t, `/business/customers/${id}`) };
  },
  "/events/{id}": async (t, { make }) => {
    // A claim filed: its claim.submitted event.
    const claimId = (await make("/claims/{id}")).id;
    const events = await ok(await t.write.get("events?type=claim.submitted&limit=100"));
    const event = (events.data as { id: string; data: { id?: string } }[]).find((e) => e.data.id === claimId);
    if (!event) throw new Error(`no claim.submitted event for ${claimId}`);
    return { id: event.id, read: () => get(t, `/events/${event.id}`) };
  },
  "/business/webhooks/deliveries/{id}": async (t, { make }) => {
    const webhookId = (await make("/business/webhooks/{id}")).id;
    const d = await ok(await t.write.post(`business/webhooks/${webhookId}/test`));
    return { id: d.id, read: () => findIn(t, "/business/webhooks/logs", d.id) };
  },
  "/business/documents/certificates/{id}": async (t) => {
    const c = await uploadCertificate(t.write);
    // Inactive, so that a PATCH {isActive: true} getting through would show.
    await ok(await t.write.patch(`business/documents/certificates/${c.id}`, { data: { isActive: false } }));
    return {
      id: c.id,
      read: async () => ({
        row: await findIn(t, "/business/documents/certificates", c.id),
        file: await fileAnswer(await t.write.get(c.url)),
      }),
    };
  },
  "/business/documents/receipt-samples/{id}": async (t) => {
    const r = await uploadReceiptSample(t.write);
    return {
      id: r.id,
      read: async () => ({
        row: await findIn(t, "/business/documents/receipt-samples", r.id),
        file: await fileAnswer(await t.write.get(r.url)),
      }),
    };
  },
  "/business/notification-templates/{kind}": async (t) => ({
    id: "claim_approved",
    read: async () =>
      ((await get(t, "/business/notification-templates")) as { data: { kind: string }[] }).data.find((n) => n.kind === "claim_approved"),
  }),
  "/business/payment-methods/bank-accounts/{id}": async (t) => {
    // Pending verification, so that a verify, default or removal getting through would show.
    const accountNumber = String(1_000_000_000 + Math.floor(Math.random() * 8_999_999_999));
    const a = await ok(
      await t.write.post("business/payment-methods/bank-accounts", {
        data: { bankName: "Access Bank", accountNumber, accountName: "Matrix Stores Ltd" },
      }),
      201,
    );
    return { id: a.id, read: () => findIn(t, "/business/payment-methods/bank-accounts", a.id) };
  },
};

/** Records of one tenant, made on demand, once per kind. */
export function recordsOf(t: Tenant, receiver: Receiver) {
  const made = new Map<string, Promise<Made>>();
  const make = (kind: string): Promise<Made> => {
    const factory = factories[kind];
    if (!factory) throw new Error(`no factory for ${kind}`);
    if (!made.has(kind)) made.set(kind, factory(t, { receiver, make }));
    return made.get(kind)!;
  };
  return make;
}
