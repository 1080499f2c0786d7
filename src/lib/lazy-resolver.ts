import type { FieldValues, Resolver } from "react-hook-form";

/** A form resolver whose schema (and zod with it) loads on first use, not with the page. */
export type LazyResolver<TInput extends FieldValues, TContext, TOutput> = Resolver<TInput, TContext, TOutput> & {
  /** Starts loading the schema: call it when the person starts on the form (focus). */
  preload: () => void;
};

/**
 * Wraps `zodResolver(Schema)` kept in a module of its own, loaded with a
 * dynamic import when the form first validates. zod, the schema and its
 * messages are the same as with a static import: the form says the same
 * sentences, only later in the page's life. Pair with
 * `onFocus={resolver.preload}` on the form so the schema is there by submit.
 */
export function lazyResolver<TInput extends FieldValues, TContext, TOutput>(
  load: () => Promise<Resolver<TInput, TContext, TOutput>>,
): LazyResolver<TInput, TContext, TOutput> {
  let pending: Promise<Resolver<TInput, TContext, TOutput>> | undefined;
  const get = () =>
    (pending ??= load().catch((err: unknown) => {
      pending = undefined; // a failed chunk load is retried on the next validation
      throw err;
    }));
  const resolver: Resolver<TInput, TContext, TOutput> = async (values, context, options) =>
    (await get())(values, context, options);
  return Object.assign(resolver, { preload: () => void get().catch(() => undefined) });
}
