// Organizations are user-scoped: a user sees and acts on the organizations
// they belong to, with their role in each.
import type { Member, Organization as OrgRow, Role } from "@/generated/prisma/client";
import { minorDigits } from "@/lib/money";
import { db, type Tx } from "@/server/db/client";
import { accountOf, assertCan, type Actor } from "@/server/actor";
import { changed, changesOf } from "@/server/audit/diff";
import { audit } from "@/server/audit/record";
import { AppError, notFound } from "@/server/errors";
import { auditOrganizationCreated } from "./created-audit";
import { ensureTestTwin, syncTestTwin } from "./twin";
import { pageArgs, toPage, type Page, type PageQuery } from "@/server/pagination";
import type { CreateOrganizationInput, Organization, UpdateOrganizationInput } from "@/lib/schemas/organizations";

function toOrganization(org: OrgRow, role: Role): Organization {
  return {
    id: org.id,
    name: org.name,
    email: org.email,
    phone: org.phone,
    address: org.address,
    currency: org.currency,
    role,
    createdAt: org.createdAt.toISOString(),
  };
}

/** The user's membership in an organization, or 404: never reveal an organization the user is not in. */
async function findMembership(userId: string, organizationId: string): Promise<Member & { organization: OrgRow }> {
  const member = await db.member.findUnique({
    where: { organizationId_userId: { organizationId, userId } },
    include: { organization: true },
  });
  if (!member) throw notFound("Organization");
  return member;
}

/** The actor a user has in one of their organizations (the dashboard and user-scoped API calls). */
export async function actorForUser(userId: string, organizationId: string, apiKey?: Actor["apiKey"]): Promise<Actor> {
  const member = await findMembership(userId, organizationId);
  return { organizationId, userId, role: member.role, apiKey };
}

/**
 * The dashboard's actor: the signed-in member in their active organization,
 * or in its test twin while they have test mode on (team, settings and keys
 * stay the live organization's: `accountId`).
 */
export async function sessionActor(
  userId: string,
  member: { organizationId: string; role: Role },
  testMode: boolean,
): Promise<Actor> {
  const base = { userId, role: member.role, accountId: member.organizationId };
  if (!testMode) return { ...base, organizationId: member.organizationId, livemode: true };
  return { ...base, organizationId: await ensureTestTwin(member.organizationId), livemode: false };
}

/** Turns the dashboard's test mode on (livemode false) or off for the user; answers the mode now in force. */
export async function setDashboardMode(userId: string, livemode: boolean): Promise<boolean> {
  await db.user.update({ where: { id: userId }, data: { testMode: !livemode } });
  return livemode;
}

/** The user's organizations, newest membership first. */
export async function listOrganizations(userId: string, page: PageQuery): Promise<Page<Organization>> {
  const args = pageArgs(page);
  const members = await db.member.findMany({
    ...args,
    where: { userId, ...args.where },
    include: { organization: true },
  });
  return toPage(members, page, (m) => toOrganization(m.organization, m.role));
}

export async function getOrganization(userId: string, organizationId: string): Promise<Organization> {
  const member = await findMembership(userId, organizationId);
  return toOrganization(member.organization, member.role);
}

/** Creates an organization with the user as its OWNER and makes it their active one. */
export async function createOrganization(userId: string, input: CreateOrganizationInput): Promise<Organization> {
  return db.$transaction(async (tx) => {
    const org = await tx.organization.create({
      data: {
        name: input.name,
        email: input.email,
        phone: input.phone,
        address: input.address,
        currency: input.currency ?? "NGN",
        members: { create: { userId, role: "OWNER" } },
      },
    });
    await ensureTestTwin(org.id, tx);
    await auditOrganizationCreated(tx, org, userId);
    await tx.user.update({ where: { id: userId }, data: { activeOrganizationId: org.id } });
    return toOrganization(org, "OWNER");
  });
}

const currencyLockedReason = (currency: string) =>
  `Payments have already been made in ${currency}, so the currency can no longer change`;

/** Whether the business has any payment, in either mode, pending ones included. */
async function hasPayment(tx: Tx | typeof db, accountId: string): Promise<boolean> {
  const paid = await tx.payment.findFirst({
    where: { organization: { OR: [{ id: accountId }, { liveOrganizationId: accountId }] } },
    select: { id: true },
  });
  return paid !== null;
}

/** Why the organization's currency can no longer change, or null while it can (dashboard). */
export async function currencyLock(actor: Actor): Promise<string | null> {
  assertCan(actor, "read");
  const account = accountOf(actor);
  const [org, paid] = await Promise.all([
    db.organization.findUniqueOrThrow({ where: { id: account }, select: { currency: true } }),
    hasPayment(db, account),
  ]);
  return paid ? currencyLockedReason(org.currency) : null;
}

/**
 * Changes the profile. The currency can change only while the business has no
 * payment at all — live or test, pending included: prices, payments, the
 * ledger, the balance and payouts are all in it, and a payment's currency is
 * fixed when it is initialized. The change holds the organization's row and
 * its test twin's `FOR UPDATE` while it checks; initializing a payment holds
 * its organization's row `FOR KEY SHARE` and reads the currency from it
 * (payments/service.ts), so on PostgreSQL the two serialize: a payment comes
 * entirely before the change (which then refuses) or after it (and is made in
 * the new currency). Policies of both modes follow the new currency (nothing
 * has been sold in the old one), their prices rescaled to its minor unit.
 */
export async function updateOrganization(actor: Actor, input: UpdateOrganizationInput): Promise<Organization> {
  assertCan(actor, "account");
  const account = accountOf(actor);
  return db.$transaction(async (tx) => {
    const [current] = await tx.$queryRaw<{ currency: string }[]>`
      SELECT currency FROM organization WHERE id = ${account} FOR UPDATE`;
    const before = await tx.organization.findUnique({ where: { id: account } });
    const changing = input.currency !== undefined && input.currency !== current!.currency;
    if (changing) {
      // The twin is locked too (always after the live row: one order), made first if it is missing.
      const twin = await ensureTestTwin(account, tx);
      await tx.$queryRaw`SELECT id FROM organization WHERE id = ${twin} FOR UPDATE`;
      if (await hasPayment(tx, account)) {
        throw new AppError(
          "currency_locked",
          `The currency stays ${current!.currency}: payments have already been made in it, and your balance and payouts are kept in it. Create a new organization to sell in ${input.currency}.`,
          { errors: [{ path: "currency", message: currencyLockedReason(current!.currency) }] },
        );
      }
      // The prices keep their number in the new currency's minor unit: 20.50 NGN (2050) is 20.50 USD (2050),
      // ¥21 (21 — rounded half up to whole yen, never below one unit) or 20.500 KWD (20500).
      const shift = minorDigits(input.currency!) - minorDigits(current!.currency);
      await tx.$executeRaw`
        UPDATE policy SET currency = ${input.currency},
          "priceMinor" = CASE WHEN ${shift}::int >= 0 THEN "priceMinor" * power(10, ${shift}::int)::bigint
                              ELSE greatest(1, round("priceMinor" / power(10, -${shift}::int)::numeric))::bigint END,
          "updatedAt" = now()
        WHERE "organizationId" IN (${account}, ${twin})`;
    }
    const org = await tx.organization.update({
      where: { id: account },
      data: {
        name: input.name,
        email: input.email,
        phone: input.phone,
        address: input.address,
        currency: input.currency,
      },
    });
    await syncTestTwin(tx, account);
    const fields = ["name", "email", "phone", "address", "currency"] as const;
    const changes = changesOf(toOrganization(before!, actor.role), toOrganization(org, actor.role), fields);
    if (changed(changes))
      await audit(tx, account, {
        action: "organization.updated",
        resourceType: "organization",
        resourceId: account,
        details: { ...changes },
      });
    return toOrganization(org, actor.role);
  });
}

/** Sets the organization the dashboard opens next for this user. */
export async function switchOrganization(userId: string, organizationId: string): Promise<Organization> {
  const member = await findMembership(userId, organizationId);
  await db.user.update({ where: { id: userId }, data: { activeOrganizationId: organizationId } });
  return toOrganization(member.organization, member.role);
}

/**
 * The organization a signed-in user works in: their active one if they still
 * belong to it, else their oldest membership. Null when they belong to none.
 */
export async function resolveActiveMembership(userId: string, activeOrganizationId: string | null) {
  // With the organization's two-factor requirement: the dashboard's actor is refused without it.
  const include = { organization: { select: { requireTwoFactor: true } } } as const;
  if (activeOrganizationId) {
    const member = await db.member.findUnique({
      where: { organizationId_userId: { organizationId: activeOrganizationId, userId } },
      include,
    });
    if (member) return member;
  }
  const first = await db.member.findFirst({ where: { userId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], include });
  if (first && first.organizationId !== activeOrganizationId) {
    await db.user.update({ where: { id: userId }, data: { activeOrganizationId: first.organizationId } });
  }
  return first;
}
