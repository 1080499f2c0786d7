// What a business sets about its notices: the words of each policyholder
// notice (kept on the live account, like the settings: both modes use them),
// a sample sent to the signed-in user, and the policyholder's own contact
// preferences on the portal.
import { NOTICE_KINDS, NOTICE_SPECS, checkTemplate, defaultTemplate, isNoticeKind, type NoticeKind } from "@/lib/notice-templates";
import type {
  NotificationTemplate,
  NotificationTemplateInput,
  NotificationTemplateList,
  PortalContact,
  PortalContactInput,
} from "@/lib/schemas/notifications";
import { accountOf, assertCan, type Actor } from "@/server/actor";
import { changed, changesOf } from "@/server/audit/diff";
import { audit } from "@/server/audit/record";
import { db } from "@/server/db/client";
import { AppError, notFound, validationError } from "@/server/errors";
import type { MailData } from "@/server/mail/kinds";
import { phoneOf } from "@/server/phone";
import { activeCounter } from "@/server/rest/rate-limit";

type Row = { kind: string; emailSubject: string; emailBody: string; smsBody: string; updatedAt: Date };

function toTemplate(kind: NoticeKind, row: Row | undefined): NotificationTemplate {
  const spec = NOTICE_SPECS[kind];
  const words = row ?? defaultTemplate(kind);
  return {
    kind,
    label: spec.label,
    when: spec.when,
    link: spec.link,
    placeholders: Object.entries(spec.placeholders).map(([name, description]) => ({ name, description })),
    emailSubject: words.emailSubject,
    emailBody: words.emailBody,
    smsBody: words.smsBody,
    customized: Boolean(row),
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

export async function listTemplates(actor: Actor): Promise<NotificationTemplateList> {
  assertCan(actor, "read");
  const rows = await db.notificationTemplate.findMany({ where: { organizationId: accountOf(actor) } });
  return { data: NOTICE_KINDS.map((kind) => toTemplate(kind, rows.find((r) => r.kind === kind))) };
}

/** The notice of that name, or 404 (after the permission check: a refusal comes first). */
function noticeKind(kind: string): NoticeKind {
  if (!isNoticeKind(kind)) throw notFound("Notification template");
  return kind;
}

/** 422 naming each field that cannot be saved (unknown placeholder, a section, no link in the SMS, too long). */
function assertValid(kind: NoticeKind, input: NotificationTemplateInput) {
  const problems = checkTemplate(kind, input);
  if (problems.length) throw validationError(problems.map((p) => ({ path: p.path, message: p.message })));
}

export async function updateTemplate(actor: Actor, name: string, input: NotificationTemplateInput): Promise<NotificationTemplate> {
  assertCan(actor, "account");
  const kind = noticeKind(name);
  assertValid(kind, input);
  const organizationId = accountOf(actor);
  const row = await db.$transaction(async (tx) => {
    const before = await tx.notificationTemplate.findUnique({ where: { organizationId_kind: { organizationId, kind } } });
    const saved = await tx.notificationTemplate.upsert({
      where: { organizationId_kind: { organizationId, kind } },
      create: { organizationId, kind, ...input },
      update: input,
    });
    const words = (t: { emailSubject: string; emailBody: string; smsBody: string }) => ({
      emailSubject: t.emailSubject,
      emailBody: t.emailBody,
      smsBody: t.smsBody,
    });
    const changes = changesOf(words(before ?? defaultTemplate(kind)), words(saved));
    if (!before || changed(changes))
      await audit(tx, organizationId, {
        action: "notification_template.updated",
        resourceType: "notification_template",
        resourceId: kind,
        details: { kind, ...changes },
      });
    return saved;
  });
  return toTemplate(kind, row);
}

/** Back to the default words (the business's row goes). */
export async function resetTemplate(actor: Actor, name: string): Promise<NotificationTemplate> {
  assertCan(actor, "account");
  const kind = noticeKind(name);
  await db.$transaction(async (tx) => {
    const { count } = await tx.notificationTemplate.deleteMany({ where: { organizationId: accountOf(actor), kind } });
    if (count > 0)
      await audit(tx, accountOf(actor), {
        action: "notification_template.reset",
        resourceType: "notification_template",
        resourceId: kind,
        details: { kind },
      });
  });
  return toTemplate(kind, undefined);
}

/** Samples a minute per user: a test is a real email and SMS. */
const TESTS_PER_WINDOW = 5;

/** Sends the template as written (saved or not) with sample values to the signed-in user: email, and SMS to a verified phone. */
export async function sendTemplateTest(
  actor: Actor,
  name: string,
  input: NotificationTemplateInput,
): Promise<{ email: string; phone: string | null }> {
  assertCan(actor, "admin");
  const kind = noticeKind(name);
  assertValid(kind, input);
  const now = Date.now() / 1000;
  const start = Math.floor(now / 60) * 60;
  if ((await activeCounter()(`template-test:${actor.userId}`, start, 60, 1)) > TESTS_PER_WINDOW) {
    throw new AppError("rate_limited", "Too many samples in a minute. Try again shortly.", {
      retryAfterSeconds: Math.max(1, Math.ceil(start + 60 - now)),
    });
  }
  const user = await db.user.findUniqueOrThrow({
    where: { id: actor.userId },
    select: { email: true, phone: true, phoneVerifiedAt: true },
  });
  const phone = user.phone && user.phoneVerifiedAt ? user.phone : null;
  const data: MailData<"template_test"> = { template: kind, ...input };
  const sourceId = `test:${crypto.randomUUID()}`;
  const base = { organizationId: actor.organizationId, kind: "template_test", sourceId, data };
  await db.mailTask.createMany({
    data: [{ ...base, recipient: user.email.toLowerCase() }, ...(phone ? [{ ...base, channel: "sms", recipient: phone }] : [])],
  });
  return { email: user.email, phone };
}

// ---------- the policyholder's contact preferences (portal) ----------

export interface Holder {
  organizationId: string;
  email: string;
}

export async function portalContact(holder: Holder): Promise<PortalContact> {
  const row = await db.customer.findUnique({
    where: { organizationId_email: { organizationId: holder.organizationId, email: holder.email } },
    select: { phone: true, smsOptOut: true },
  });
  return { phone: row?.phone ?? null, smsOptOut: row?.smsOptOut ?? false };
}

/**
 * Sets the policyholder's phone (E.164, read in the business's country) and
 * their SMS choice; a change is recorded (customer.updated, by the
 * policyholder) in the same transaction. The row is locked while it is
 * compared, so concurrent changes each record what they changed.
 */
export async function setPortalContact(holder: Holder, input: PortalContactInput): Promise<PortalContact> {
  const org = await db.organization.findUniqueOrThrow({ where: { id: holder.organizationId }, select: { currency: true } });
  const phone =
    input.phone === undefined ? undefined : input.phone === null || input.phone === "" ? null : phoneOf(input.phone, org.currency, "phone");
  const data = { ...(phone !== undefined ? { phone } : {}), ...(input.smsOptOut !== undefined ? { smsOptOut: input.smsOptOut } : {}) };
  return db.$transaction(async (tx) => {
    const [before] = await tx.$queryRaw<{ phone: string | null; smsOptOut: boolean }[]>`
      SELECT phone, "smsOptOut" FROM customer
      WHERE "organizationId" = ${holder.organizationId} AND email = ${holder.email} FOR UPDATE`;
    const row = await tx.customer.upsert({
      where: { organizationId_email: { organizationId: holder.organizationId, email: holder.email } },
      create: { organizationId: holder.organizationId, email: holder.email, ...data },
      update: data,
      select: { id: true, phone: true, smsOptOut: true },
    });
    const { id, ...contact } = row;
    // A policyholder with no row yet had the defaults (no phone, texts wanted).
    const changes = changesOf(before ?? { phone: null, smsOptOut: false }, contact);
    if (changed(changes))
      await audit(tx, holder.organizationId, {
        action: "customer.updated",
        resourceType: "customer",
        resourceId: id,
        details: { email: holder.email, source: "portal", ...changes },
      });
    return contact;
  });
}
