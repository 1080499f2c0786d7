/**
 * A module — typically an API schema, and zod with it — loaded on first use
 * rather than with the page, for a form that checks its values in its submit
 * handler. The same schema says the same sentences, only a moment later in the
 * page's life; call `preload` when the person starts on the form (focus) so it
 * is there by submit. A failed load is retried on the next call.
 *
 *   const settingsSchema = lazyModule(() => import("@/lib/schemas/settings"));
 *   const { UpdateSettingsInput } = await settingsSchema();
 */
export function lazyModule<T>(load: () => Promise<T>) {
  let pending: Promise<T> | undefined;
  const get = () =>
    (pending ??= load().catch((err: unknown) => {
      pending = undefined;
      throw err;
    }));
  return Object.assign(get, { preload: () => void get().catch(() => undefined) });
}
