// An organization's two-factor requirement: its owner turns it on (having
// two-factor themselves, so they cannot lock themselves out) and every member
// without it is then refused by the dashboard's actor (`memberActor`, 403
// `two_factor_required`) and sent to set it up — sessions made before the
// change included, since it is read on every call. API keys are not affected.
import type { TwoFactorRequirement } from "@/lib/schemas/two-factor";
import { accountOf, type Actor } from "@/server/actor";
import { audit } from "@/server/audit/record";
import { db } from "@/server/db/client";
import { AppError } from "@/server/errors";

export async function twoFactorRequirement(actor: Actor): Promise<TwoFactorRequirement> {
  const account = accountOf(actor);
  const [org, members, without, you] = await Promise.all([
    db.organization.findUniqueOrThrow({ where: { id: account }, select: { requireTwoFactor: true } }),
    db.member.count({ where: { organizationId: account } }),
    db.member.count({ where: { organizationId: account, user: { twoFactorEnabled: false } } }),
    db.user.findUnique({ where: { id: actor.userId }, select: { twoFactorEnabled: true } }),
  ]);
  return {
    required: org.requireTwoFactor,
    members,
    membersWithout: without,
    youHaveIt: you?.twoFactorEnabled === true,
    canChange: actor.role === "OWNER" && !actor.apiKey,
  };
}

export async function setTwoFactorRequirement(actor: Actor, required: boolean): Promise<TwoFactorRequirement> {
  if (actor.role !== "OWNER" || actor.apiKey) {
    throw new AppError("forbidden", "Only the organization's owner can change the two-factor requirement");
  }
  const account = accountOf(actor);
  await db.$transaction(async (tx) => {
    if (required) {
      const you = await tx.user.findUnique({ where: { id: actor.userId }, select: { twoFactorEnabled: true } });
      if (!you?.twoFactorEnabled) {
        throw new AppError("invalid_state", "Turn on two-factor sign-in for your own account first (Account → Security)");
      }
    }
    const { count } = await tx.organization.updateMany({
      where: { id: account, requireTwoFactor: !required },
      data: { requireTwoFactor: required },
    });
    if (count === 1) {
      await audit(tx, account, {
        action: "organization.two_factor_requirement_changed",
        resourceType: "organization",
        resourceId: account,
        details: { before: { requireTwoFactor: !required }, after: { requireTwoFactor: required } },
      });
    }
  });
  return twoFactorRequirement(actor);
}

/** Whether an organization the user belongs to requires two-factor (they may not turn it off then). */
export async function requiredOfUser(userId: string): Promise<boolean> {
  const found = await db.member.findFirst({ where: { userId, organization: { requireTwoFactor: true } }, select: { id: true } });
  return found !== null;
}
