// better-auth's client, loaded when a form or button first needs it (submit,
// sign-out) rather than with the page. Call it on focus to have it ready.
import type { authClient as AuthClient } from "./auth-client";

let client: Promise<typeof AuthClient> | undefined;
export function loadAuthClient(): Promise<typeof AuthClient> {
  return (client ??= import("./auth-client").then(
    (m) => m.authClient,
    (err: unknown) => {
      client = undefined; // a failed chunk load is retried next time
      throw err;
    },
  ));
}
/** For `onFocus`: starts loading, ignores a failure (the next call retries). */
export const preloadAuthClient = () => void loadAuthClient().catch(() => undefined);
