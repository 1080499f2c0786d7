import { router } from "./init";
import { apiKeysRouter } from "./routers/api-keys";
import { organizationsRouter } from "./routers/organizations";
import { settingsRouter } from "./routers/settings";

export const appRouter = router({
  organizations: organizationsRouter,
  apiKeys: apiKeysRouter,
  settings: settingsRouter,
});

export type AppRouter = typeof appRouter;
