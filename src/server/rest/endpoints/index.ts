import type { AnyEndpoint } from "../endpoint";
import { analyticsEndpoints } from "./analytics";
import { apiKeyEndpoints } from "./api-keys";
import { bankAccountEndpoints } from "./bank-accounts";
import { claimEndpoints } from "./claims";
import { documentEndpoints } from "./documents";
import { earningsEndpoints } from "./earnings";
import { kybEndpoints } from "./kyb";
import { organizationEndpoints } from "./organizations";
import { paymentEndpoints } from "./payments";
import { policyEndpoints } from "./policies";
import { settingsEndpoints } from "./settings";
import { teamEndpoints } from "./team";
import { webhookEndpoints } from "./webhooks";

/** Every REST operation, in the order the API reference lists them. */
export const endpoints: AnyEndpoint[] = [
  ...organizationEndpoints,
  ...teamEndpoints,
  ...apiKeyEndpoints,
  ...policyEndpoints,
  ...paymentEndpoints,
  ...claimEndpoints,
  ...webhookEndpoints,
  ...settingsEndpoints,
  ...documentEndpoints,
  ...kybEndpoints,
  ...earningsEndpoints,
  ...bankAccountEndpoints,
  ...analyticsEndpoints,
];
