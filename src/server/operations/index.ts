// Every operation of the app. The REST ones are listed in this order in the
// API reference (OpenAPI) and matched in it by the pipeline.
import { adminOperations } from "./admin";
import { analyticsOperations } from "./analytics";
import { auditOperations } from "./audit";
import { apiKeyOperations } from "./api-keys";
import { bankAccountOperations } from "./bank-accounts";
import { checkoutOperations } from "./checkout";
import { claimOperations } from "./claims";
import { documentOperations } from "./documents";
import { eventOperations } from "./events";
import { earningsOperations } from "./earnings";
import { fileOperations } from "./files";
import { kybOperations } from "./kyb";
import { moneyBackOperations } from "./money-back";
import { notificationOperations } from "./notifications";
import { organizationOperations } from "./organizations";
import { paymentLinkOperations } from "./payment-links";
import { paymentOperations } from "./payments";
import { policyOperations } from "./policies";
import { portalOperations } from "./portal";
import { profileOperations } from "./profile";
import { sampleDataOperations } from "./sample-data";
import { settingsOperations } from "./settings";
import { teamOperations } from "./team";
import { webhookOperations } from "./webhooks";

export const operations = [
  ...organizationOperations,
  ...teamOperations,
  ...apiKeyOperations,
  ...policyOperations,
  ...paymentOperations,
  ...paymentLinkOperations,
  ...claimOperations,
  ...webhookOperations,
  ...eventOperations,
  ...settingsOperations,
  ...notificationOperations,
  ...profileOperations,
  ...sampleDataOperations,
  ...documentOperations,
  ...kybOperations,
  ...earningsOperations,
  ...bankAccountOperations,
  ...moneyBackOperations,
  ...analyticsOperations,
  ...auditOperations,
  ...adminOperations,
  ...fileOperations,
  ...checkoutOperations,
  ...portalOperations,
] as const;

export { operation, type AnyOperation, type AuthKind, type Operation } from "./operation";
