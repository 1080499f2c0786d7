// The organization's settings: notifications, the API rate limit, renewal
// reminder days, the cancellation cooling-off days and branding (accent colour, logo). Kept on the live account,
// shared by both modes (a test twin's coverages follow the account's days).
import type { Organization, StoredFile } from "@/generated/prisma/client";
import { db, type Tx } from "@/server/db/client";
import { accountOf, assertCan, type Actor } from "@/server/actor";
import { forgetApiKeys } from "@/server/api-keys/service";
import { changed, changesOf } from "@/server/audit/diff";
import { audit } from "@/server/audit/record";
import { rescheduleReminders } from "@/server/coverages/schedule";
import { env } from "@/server/env";
import { AppError, notFound, validationError } from "@/server/errors";
import { shrinkLogo } from "@/server/files/images";
import { UploadedFile } from "@/server/files/multipart";
import { fileUrl, removeFileBytes, withStoredFiles } from "@/server/files/service";
import { imageRefusal } from "@/server/files/sniff";
import type { Settings, UpdateSettingsInput, UploadLogoInput } from "@/lib/schemas/settings";

/** A logo is shown small: 1 MiB is plenty (or the upload limit, if lower). */
export const LOGO_MAX_BYTES = () => Math.min(1024 * 1024, env.MAX_UPLOAD_BYTES);

type Row = Pick<
  Organization,
  "notifyEmail" | "notifySms" | "notifyDigest" | "apiRateLimit" | "reminderDays" | "coolingOffDays" | "accentColor"
> & {
  logoFile: StoredFile | null;
};

const toSettings = (org: Row): Settings => ({
  notifications: { email: org.notifyEmail, sms: org.notifySms, digest: org.notifyDigest },
  api: { rateLimit: org.apiRateLimit },
  reminders: { daysBefore: [...org.reminderDays].sort((a, b) => b - a) },
  coverage: { coolingOffDays: org.coolingOffDays },
  branding: {
    accentColor: org.accentColor,
    logo: org.logoFile
      ? {
          fileName: org.logoFile.fileName,
          contentType: org.logoFile.contentType as "image/png" | "image/jpeg",
          size: org.logoFile.size,
          url: fileUrl(org.logoFile.id),
          createdAt: org.logoFile.createdAt.toISOString(),
        }
      : null,
  },
});

async function read(accountId: string, client: Tx | typeof db = db): Promise<Settings> {
  const org = await client.organization.findUnique({ where: { id: accountId }, include: { logoFile: true } });
  if (!org) throw notFound("Organization");
  return toSettings(org);
}

export async function getSettings(actor: Actor): Promise<Settings> {
  return read(accountOf(actor));
}

/**
 * Merges the given fields; absent fields keep their value. New reminder days
 * reschedule the reminders of the coverages of both modes that have not ended.
 */
export async function updateSettings(actor: Actor, input: UpdateSettingsInput): Promise<Settings> {
  assertCan(actor, "account");
  const accountId = accountOf(actor);
  const days = input.reminders?.daysBefore ? [...input.reminders.daysBefore].sort((a, b) => b - a) : undefined;
  const settings = await db.$transaction(async (tx) => {
    const before = await tx.organization.findUnique({ where: { id: accountId }, include: { logoFile: true } });
    const org = await tx.organization.update({
      where: { id: accountId },
      data: {
        notifyEmail: input.notifications?.email,
        notifySms: input.notifications?.sms,
        notifyDigest: input.notifications?.digest,
        apiRateLimit: input.api?.rateLimit,
        reminderDays: days,
        coolingOffDays: input.coverage?.coolingOffDays,
        accentColor: input.branding?.accentColor,
      },
      include: { logoFile: true },
    });
    if (days) await rescheduleReminders(tx, accountId, days);
    const after = toSettings(org);
    if (before) {
      const flat = (s: Settings) => ({
        "notifications.email": s.notifications.email,
        "notifications.sms": s.notifications.sms,
        "notifications.digest": s.notifications.digest,
        "api.rateLimit": s.api.rateLimit,
        "reminders.daysBefore": s.reminders.daysBefore,
        "coverage.coolingOffDays": s.coverage.coolingOffDays,
        "branding.accentColor": s.branding.accentColor,
      });
      const changes = changesOf(flat(toSettings(before)), flat(after));
      if (changed(changes))
        await audit(tx, accountId, {
          action: "settings.updated",
          resourceType: "settings",
          resourceId: accountId,
          details: { ...changes },
        });
    }
    return after;
  });
  if (input.api?.rateLimit !== undefined) forgetApiKeys();
  return settings;
}

/**
 * The account row locked (FOR UPDATE), with its current logo file. Every
 * change of the logo takes this lock before anything else: creating a
 * stored_file row share-locks the organization row through its foreign key,
 * so taking FOR UPDATE after that would deadlock two concurrent uploads.
 */
async function lockedLogo(tx: Tx, accountId: string): Promise<StoredFile | null> {
  const [locked] = await tx.$queryRaw<{ logoFileId: string | null }[]>`
    SELECT "logoFileId" FROM organization WHERE id = ${accountId} FOR UPDATE`;
  if (!locked) throw notFound("Organization");
  return locked.logoFileId ? tx.storedFile.findUnique({ where: { id: locked.logoFileId } }) : null;
}

/**
 * Sets the logo (a PNG or JPEG of at most 1 MiB, its header within the image
 * limits); what is kept is a copy fitted inside 512 × 512 (files/images),
 * which the portal serves and certificates embed. The logo it replaces is
 * deleted, row and bytes. Concurrent uploads queue on the account row: the
 * last one wins, and exactly one logo file remains.
 */
export async function setLogo(actor: Actor, input: UploadLogoInput): Promise<Settings> {
  assertCan(actor, "account");
  const { file } = input;
  if (file.contentType !== "image/png" && file.contentType !== "image/jpeg") {
    throw new AppError("unsupported_media_type", "file: a logo must be a PNG or JPEG image (judged by its content)", {
      errors: [{ path: "file", message: "Choose a PNG or JPEG image" }],
    });
  }
  const max = LOGO_MAX_BYTES();
  if (file.size > max) {
    throw new AppError("payload_too_large", `file: a logo may be at most ${max} bytes`, {
      errors: [{ path: "file", message: `Choose an image of at most ${Math.floor(max / 1024)} KiB` }],
    });
  }
  // Judged by its header before anything decodes it (the upload reader did too; callers in-process may not go through it).
  const refused = imageRefusal(file.bytes, file.contentType);
  if (refused) throw validationError([{ path: "file", message: refused }]);
  const small = new UploadedFile(file.field, file.fileName, file.contentType, await shrinkLogo(file.bytes, file.contentType));
  const accountId = accountOf(actor);
  const { settings, replaced } = await withStoredFiles(
    accountId,
    [small],
    async (tx, [stored]) => {
      const old = await lockedLogo(tx, accountId);
      await tx.organization.update({ where: { id: accountId }, data: { logoFileId: stored!.id } });
      if (old) await tx.storedFile.delete({ where: { id: old.id } });
      await audit(tx, accountId, {
        action: "settings.logo_set",
        resourceType: "settings",
        resourceId: accountId,
        details: {
          fileId: stored!.id,
          fileName: stored!.fileName,
          contentType: stored!.contentType,
          size: stored!.size,
          replacedFileId: old?.id ?? null,
        },
      });
      return { settings: await read(accountId, tx), replaced: old };
    },
    { lockFirst: (tx) => lockedLogo(tx, accountId) },
  );
  if (replaced) await removeFileBytes([replaced]);
  return settings;
}

/** Removes the logo (row and bytes); nothing to do without one. */
export async function removeLogo(actor: Actor): Promise<Settings> {
  assertCan(actor, "account");
  const accountId = accountOf(actor);
  const { settings, removed } = await db.$transaction(async (tx) => {
    const old = await lockedLogo(tx, accountId);
    if (old) {
      await tx.organization.update({ where: { id: accountId }, data: { logoFileId: null } });
      await tx.storedFile.delete({ where: { id: old.id } });
      await audit(tx, accountId, {
        action: "settings.logo_removed",
        resourceType: "settings",
        resourceId: accountId,
        details: { fileId: old.id, fileName: old.fileName },
      });
    }
    return { settings: await read(accountId, tx), removed: old };
  });
  if (removed) await removeFileBytes([removed]);
  return settings;
}
