// Notices: the words of each policyholder notice (REST and dashboard), a
// sample to oneself, and a policyholder's contact preferences in the portal.
import { z } from "@/lib/messages";
import {
  NoticeKindParam,
  NotificationTemplate,
  NotificationTemplateInput,
  NotificationTemplateList,
  PortalContact,
  PortalContactInput,
  TemplateTestResult,
} from "@/lib/schemas/notifications";

import {
  listTemplates,
  portalContact,
  resetTemplate,
  sendTemplateTest,
  setPortalContact,
  updateTemplate,
} from "@/server/notices/service";
import { operation } from "./operation";

const tag = "Notifications";
const KindBody = NoticeKindParam.extend(NotificationTemplateInput.shape).strict();
const PRIVATE = { "Cache-Control": "private, no-store" };

export const notificationOperations = [
  // GET /api/v1/business/notification-templates
  operation({
    name: "notificationTemplates.list",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    output: NotificationTemplateList,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/business/notification-templates",
      operationId: "listNotificationTemplates",
      summary: "List the policyholder notice templates",
      description:
        "Every policyholder notice with its words: the business's own when it wrote them (`customized`), else the default. Placeholders are `{{name}}` only; each notice lists the ones it knows and the link its SMS must carry. Kept on the account: both modes use them.",
      tag,
    },
    handler: ({ actor }) => listTemplates(actor),
  }),
  // PUT /api/v1/business/notification-templates/{kind}
  operation({
    name: "notificationTemplates.update",
    auth: ["apiKey", "session"],
    permission: "write",
    kind: "mutation",
    input: KindBody,
    output: NotificationTemplate,
    dashboard: true,
    rest: {
      method: "PUT",
      path: "/business/notification-templates/{kind}",
      operationId: "updateNotificationTemplate",
      summary: "Write a policyholder notice template",
      description:
        "Sets the email subject, email text and SMS text of one notice. 422 names the field when a placeholder is unknown, a tag other than `{{name}}` is used (sections, partials, `{{{raw}}}`), the SMS lacks the notice's link, or a text is too long. Values are escaped in the email's HTML; an SMS is kept to 2 segments when sent (values shortened, never the link). Test keys cannot change it (it is the live account's).",
      tag,
      params: NoticeKindParam,
      body: NotificationTemplateInput,
    },
    handler: ({ actor, input }) => updateTemplate(actor, input.kind, input),
  }),
  // DELETE /api/v1/business/notification-templates/{kind} — back to the default words
  operation({
    name: "notificationTemplates.reset",
    auth: ["apiKey", "session"],
    permission: "write",
    kind: "mutation",
    input: NoticeKindParam,
    output: NotificationTemplate,
    dashboard: true,
    rest: {
      method: "DELETE",
      path: "/business/notification-templates/{kind}",
      operationId: "resetNotificationTemplate",
      summary: "Restore a notice's default words",
      description:
        "Removes the business's words for this notice; it is sent with the default ones again. Answers the template as it now is.",
      tag,
      params: NoticeKindParam,
    },
    handler: ({ actor, input }) => resetTemplate(actor, input.kind),
  }),
  // The dashboard's "Send me a test": the words as written, with sample values, to the signed-in user.
  operation({
    name: "notificationTemplates.test",
    auth: ["session"],
    permission: "write",
    kind: "mutation",
    input: KindBody,
    output: TemplateTestResult,
    dashboard: true,
    handler: ({ actor, input }) => sendTemplateTest(actor, input.kind, input),
  }),

  /** GET contact: the signed-in policyholder's phone and SMS choice. */
  operation({
    name: "portal.contact",
    auth: ["portal"],
    permission: "read",
    kind: "query",
    http: {
      method: "GET",
      path: "/api/portal/{organizationId}/contact",
      params: z.object({ organizationId: z.string() }),
      headers: PRIVATE,
    },
    output: PortalContact,
    handler: ({ holder }) => portalContact(holder),
  }),
  /** PUT contact {phone?, smsOptOut?}: their phone (E.164 or local to the business's country) and whether they want texts. */
  operation({
    name: "portal.setContact",
    auth: ["portal"],
    permission: "write",
    kind: "mutation",
    http: {
      method: "PUT",
      path: "/api/portal/{organizationId}/contact",
      params: z.object({ organizationId: z.string() }),
      body: PortalContactInput,
      bodyRequired: true,
      maxBodyBytes: 4096,
      headers: PRIVATE,
    },
    output: PortalContact,
    handler: ({ holder, input }) => setPortalContact(holder, input),
  }),
] as const;
