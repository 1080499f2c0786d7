import { router } from "./init";
import { apiKeysRouter } from "./routers/api-keys";
import { organizationsRouter } from "./routers/organizations";
import { policiesRouter } from "./routers/policies";
import { settingsRouter } from "./routers/settings";
import { teamRouter } from "./routers/team";

export const appRouter = router({
  organizations: organizationsRouter,
  apiKeys: apiKeysRouter,
  policies: policiesRouter,
  settings: settingsRouter,
  team: teamRouter,
});

export type AppRouter = typeof appRouter;
