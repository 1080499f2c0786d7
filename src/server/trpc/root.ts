import { router } from "./init";
import { adminRouter } from "./routers/admin";
import { analyticsRouter } from "./routers/analytics";
import { apiKeysRouter } from "./routers/api-keys";
import { bankAccountsRouter } from "./routers/bank-accounts";
import { documentsRouter } from "./routers/documents";
import { earningsRouter } from "./routers/earnings";
import { kybRouter } from "./routers/kyb";
import { claimsRouter, coveragesRouter, customersRouter, paymentsRouter } from "./routers/money";
import { organizationsRouter } from "./routers/organizations";
import { policiesRouter } from "./routers/policies";
import { settingsRouter } from "./routers/settings";
import { teamRouter } from "./routers/team";
import { webhooksRouter } from "./routers/webhooks";

export const appRouter = router({
  organizations: organizationsRouter,
  apiKeys: apiKeysRouter,
  policies: policiesRouter,
  payments: paymentsRouter,
  coverages: coveragesRouter,
  claims: claimsRouter,
  customers: customersRouter,
  settings: settingsRouter,
  team: teamRouter,
  webhooks: webhooksRouter,
  documents: documentsRouter,
  kyb: kybRouter,
  earnings: earningsRouter,
  bankAccounts: bankAccountsRouter,
  admin: adminRouter,
  analytics: analyticsRouter,
});

export type AppRouter = typeof appRouter;
