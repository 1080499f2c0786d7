// Payment links (SPEC §11): a business makes any number of links per policy
// (one per campaign or agent), each a public page at /buy/<slug> where anyone
// starts a payment of the policy through the same service as the API. A link
// belongs to its organization's mode: a test-mode link's page takes test
// cards only. Its figures come from the payments that record it
// (paymentLinkId): started, paid, revenue; its page views are counted in
// batches (views.ts).
import crypto from "node:crypto";
import type { PaymentLink as LinkRow, Prisma } from "@/generated/prisma/client";
import { formatMinor, GivenAmount } from "@/lib/money";
import type {
  CreatePaymentLinkInput,
  ListPaymentLinksQuery,
  PaymentLink,
  UpdatePaymentLinkInput,
} from "@/lib/schemas/payment-links";
import { assertCan, isLive, type Actor } from "@/server/actor";
import { changed, changesOf } from "@/server/audit/diff";
import { audit } from "@/server/audit/record";
import { db } from "@/server/db/client";
import { env } from "@/server/env";
import { notFound } from "@/server/errors";
import { pageArgs, toPage, type Page } from "@/server/pagination";
import { initializePayment } from "@/server/payments/service";
import { findPolicy } from "@/server/policies/service";
import { BuyFormInput } from "@/lib/schemas/payment-links";
import { AppError } from "@/server/errors";
import { logger } from "@/server/logger";
import { e164 } from "@/server/phone";
import { unsafeTextErrors } from "@/server/text";
import type { FormState } from "./page";
import { allowStart } from "./throttle";

/** 12 characters of base64url (72 random bits): a link's address cannot be guessed from another's. */
const newSlug = () => crypto.randomBytes(9).toString("base64url");
export const SLUG = /^[A-Za-z0-9_-]{12}$/;

export const linkUrl = (slug: string) => `${env.APP_URL}/buy/${slug}`;

type Figures = { started: number; payments: number; revenueMinor: bigint };
const NO_FIGURES: Figures = { started: 0, payments: 0, revenueMinor: 0n };

function toPaymentLink(
  row: LinkRow & { policy: { name: string; currency: string } },
  livemode: boolean,
  f: Figures,
): PaymentLink {
  return {
    id: row.id,
    policyId: row.policyId,
    policyName: row.policy.name,
    name: row.name,
    url: linkUrl(row.slug),
    active: row.active,
    collectPhone: row.collectPhone,
    redirectUrl: row.redirectUrl,
    livemode,
    views: row.views,
    started: f.started,
    payments: f.payments,
    revenue: formatMinor(f.revenueMinor, row.policy.currency),
    currency: row.policy.currency,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Started, paid and revenue of each link: one grouped read over the payments' (paymentLinkId, status) index. */
async function figuresOf(organizationId: string, ids: string[]): Promise<Map<string, Figures>> {
  const out = new Map<string, Figures>();
  if (ids.length === 0) return out;
  const groups = await db.payment.groupBy({
    by: ["paymentLinkId", "status"],
    where: { organizationId, paymentLinkId: { in: ids } },
    _count: { _all: true },
    _sum: { amountMinor: true },
  });
  for (const g of groups) {
    const f = out.get(g.paymentLinkId!) ?? { ...NO_FIGURES };
    f.started += g._count._all;
    if (g.status === "success") {
      f.payments += g._count._all;
      f.revenueMinor += g._sum.amountMinor ?? 0n;
    }
    out.set(g.paymentLinkId!, f);
  }
  return out;
}

const withPolicy = { policy: { select: { name: true, currency: true } } } as const;

async function findLink(actor: Actor, id: string) {
  const row = await db.paymentLink.findFirst({ where: { id, organizationId: actor.organizationId }, include: withPolicy });
  if (!row) throw notFound("Payment link");
  return row;
}

export async function createPaymentLink(actor: Actor, input: CreatePaymentLinkInput): Promise<PaymentLink> {
  assertCan(actor, "manage");
  const policy = await findPolicy(actor, input.policyId);
  const row = await db.$transaction(async (tx) => {
    const created = await tx.paymentLink.create({
      data: {
        organizationId: actor.organizationId,
        policyId: policy.id,
        slug: newSlug(),
        name: input.name || null,
        collectPhone: input.collectPhone,
        redirectUrl: input.redirectUrl ?? null,
      },
      include: withPolicy,
    });
    await audit(tx, actor.organizationId, {
      action: "payment_link.created",
      resourceType: "payment_link",
      resourceId: created.id,
      details: {
        policyId: policy.id,
        policyName: policy.name,
        name: created.name,
        url: linkUrl(created.slug),
        collectPhone: created.collectPhone,
        redirectUrl: created.redirectUrl,
      },
    });
    return created;
  });
  return toPaymentLink(row, isLive(actor), NO_FIGURES);
}

export async function listPaymentLinks(actor: Actor, query: ListPaymentLinksQuery): Promise<Page<PaymentLink>> {
  assertCan(actor, "read");
  const args = pageArgs(query);
  const where: Prisma.PaymentLinkWhereInput = {
    organizationId: actor.organizationId,
    ...(query.policyId ? { policyId: query.policyId } : {}),
    ...(query.active !== undefined ? { active: query.active } : {}),
    ...args.where,
  };
  const rows = await db.paymentLink.findMany({ ...args, where, include: withPolicy });
  const figures = await figuresOf(
    actor.organizationId,
    rows.slice(0, query.limit).map((r) => r.id),
  );
  return toPage(rows, query, (row) => toPaymentLink(row, isLive(actor), figures.get(row.id) ?? NO_FIGURES));
}

export async function getPaymentLink(actor: Actor, id: string): Promise<PaymentLink> {
  assertCan(actor, "read");
  const row = await findLink(actor, id);
  return toPaymentLink(row, isLive(actor), (await figuresOf(actor.organizationId, [row.id])).get(row.id) ?? NO_FIGURES);
}

export async function updatePaymentLink(actor: Actor, id: string, input: UpdatePaymentLinkInput): Promise<PaymentLink> {
  assertCan(actor, "manage");
  const row = await findLink(actor, id);
  const updated = await db.$transaction(async (tx) => {
    const link = await tx.paymentLink.update({
      where: { id: row.id },
      data: {
        active: input.active,
        name: input.name === undefined ? undefined : input.name || null,
        collectPhone: input.collectPhone,
        redirectUrl: input.redirectUrl,
      },
      include: withPolicy,
    });
    const changes = changesOf(row, link, ["active", "name", "collectPhone", "redirectUrl"]);
    if (changed(changes))
      await audit(tx, actor.organizationId, {
        action: "payment_link.updated",
        resourceType: "payment_link",
        resourceId: row.id,
        details: { ...changes },
      });
    return link;
  });
  return toPaymentLink(updated, isLive(actor), (await figuresOf(actor.organizationId, [row.id])).get(row.id) ?? NO_FIGURES);
}

// ---------- the public page ----------

/** What the public page shows, by its slug: null when there is no such link; `gone` when it or its policy is off. */
export async function publicLink(slug: string) {
  if (!SLUG.test(slug)) return null;
  const row = await db.paymentLink.findUnique({
    where: { slug },
    include: {
      policy: true,
      organization: {
        select: { id: true, name: true, livemode: true, liveOrganizationId: true, accentColor: true, logoFileId: true },
      },
    },
  });
  if (!row) return null;
  return { ...row, gone: !row.active || !row.policy.isActive };
}
export type PublicLink = NonNullable<Awaited<ReturnType<typeof publicLink>>>;

/**
 * Starts a payment of the link's policy for the visitor, through the same
 * service as `POST /payments/initialize` (as the business's system actor), the
 * link, name and phone recorded on it. Answers where to send the visitor: the
 * checkout.
 */
export async function startFromLink(
  link: PublicLink,
  visitor: { name: string; email: string; phone: string | null; autoRenew?: boolean },
): Promise<{ reference: string; authorizationUrl: string }> {
  const org = link.organization;
  const actor: Actor = {
    organizationId: org.id,
    accountId: org.liveOrganizationId ?? org.id,
    livemode: org.livemode,
    userId: `payment-link:${link.id}`,
    role: "MEMBER",
  };
  const payment = await initializePayment(
    actor,
    {
      policyId: link.policyId,
      amount: GivenAmount.ofMinor(link.policy.priceMinor, link.policy.currency),
      email: visitor.email,
      callbackUrl: link.redirectUrl ?? undefined,
      name: visitor.name,
      phone: visitor.phone ?? undefined,
      autoRenew: visitor.autoRenew,
    },
    { paymentLinkId: link.id },
  );
  return { reference: payment.reference, authorizationUrl: payment.authorizationUrl };
}

export type BuyOutcome =
  | { kind: "started"; location: string }
  | { kind: "form"; status: number; state: FormState }
  | { kind: "throttled"; retryAfterSeconds: number };

/**
 * What the public page's form asks, judged: a filled honeypot (400, nothing
 * started), unsafe text or invalid fields (422, every error at once, what was
 * typed kept), too many starts from the address or for the link (429), then
 * the payment started and the visitor sent to the checkout (303). A refusal
 * of the payment service (the policy just taken off sale, …) comes back on
 * the form with its status.
 */
export async function buyFromLink(link: PublicLink, fields: URLSearchParams, ip: string | null): Promise<BuyOutcome> {
  const raw = (k: string) => fields.get(k) ?? "";
  const values = {
    name: raw("name").slice(0, 200),
    email: raw("email").slice(0, 300),
    phone: raw("phone").slice(0, 60),
    // An unticked box sends nothing: the hidden field says the form asked.
    autoRenew: raw("autoRenewAsked") === "1" ? raw("autoRenew") === "on" : undefined,
  };
  // Filled by a bot that fills every field: refused, nothing started.
  if (raw("website") !== "")
    return { kind: "form", status: 400, state: { values, errors: { form: "We could not start this payment. Try again." } } };

  const errors: FormState["errors"] = {};
  for (const e of unsafeTextErrors(values)) errors[e.path as "name" | "email" | "phone"] ??= e.message;
  const parsed = BuyFormInput.safeParse({ ...values, phone: values.phone || undefined });
  for (const issue of parsed.error?.issues ?? []) errors[String(issue.path[0]) as keyof FormState["errors"]] ??= issue.message;
  const phone = link.collectPhone && values.phone.trim() ? e164(values.phone, link.policy.currency) : null;
  if (link.collectPhone && values.phone.trim() && !phone) {
    errors.phone ??= "Enter a valid phone number, like 0803 123 4567 or +234 803 123 4567";
  }
  if (!parsed.success || Object.keys(errors).length > 0) return { kind: "form", status: 422, state: { values, errors } };

  const allowed = await allowStart(ip, link.id);
  if (!allowed.ok) return { kind: "throttled", retryAfterSeconds: allowed.retryAfterSeconds };
  try {
    const started = await startFromLink(link, {
      name: parsed.data.name,
      email: parsed.data.email,
      phone,
      autoRenew: values.autoRenew,
    });
    return { kind: "started", location: started.authorizationUrl };
  } catch (err) {
    if (err instanceof AppError && err.status < 500) {
      const field = err.extra.errors?.[0];
      const key = field?.path === "phone" ? "phone" : "form";
      return { kind: "form", status: err.status, state: { values, errors: { [key]: field?.message ?? err.message } } };
    }
    logger.error({ err, paymentLinkId: link.id }, "payment link: the payment could not be started");
    return {
      kind: "form",
      status: 503,
      state: { values, errors: { form: "The payment could not be started just now. Try again in a minute." } },
    };
  }
}
