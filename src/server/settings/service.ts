import type { Organization } from "@/generated/prisma/client";
import { db } from "@/server/db/client";
import { accountOf, assertCan, type Actor } from "@/server/actor";
import { forgetApiKeys } from "@/server/api-keys/service";
import { notFound } from "@/server/errors";
import type { Settings, UpdateSettingsInput } from "./schemas";

const toSettings = (org: Pick<Organization, "notifyEmail" | "notifySms" | "apiRateLimit">): Settings => ({
  notifications: { email: org.notifyEmail, sms: org.notifySms },
  api: { rateLimit: org.apiRateLimit },
});

export async function getSettings(actor: Actor): Promise<Settings> {
  const org = await db.organization.findUnique({ where: { id: accountOf(actor) } });
  if (!org) throw notFound("Organization");
  return toSettings(org);
}

/** Merges the given fields; absent fields keep their value. */
export async function updateSettings(actor: Actor, input: UpdateSettingsInput): Promise<Settings> {
  assertCan(actor, "admin");
  const org = await db.organization.update({
    where: { id: accountOf(actor) },
    data: {
      notifyEmail: input.notifications?.email,
      notifySms: input.notifications?.sms,
      apiRateLimit: input.api?.rateLimit,
    },
  });
  if (input.api?.rateLimit !== undefined) forgetApiKeys();
  return toSettings(org);
}
