// The dashboard's recent-authentication prompt, as a promise: a call the
// server refused with `reauthentication_required` (a tRPC mutation, an upload)
// asks `requestReauthentication()`, the one <ReauthPrompt> mounted by the
// dashboard shows the dialog, and the promise says whether the user confirmed
// (retry the call) or cancelled (give up with the server's refusal). Calls
// refused together share one prompt.

export const REAUTH_CODE = "reauthentication_required";

type Listener = (open: boolean) => void;
let pending: { promise: Promise<boolean>; resolve: (ok: boolean) => void } | null = null;
const listeners = new Set<Listener>();

export function requestReauthentication(): Promise<boolean> {
  if (pending) return pending.promise;
  // Nothing mounted to ask (a page outside the dashboard): the refusal stands.
  if (listeners.size === 0) return Promise.resolve(false);
  let resolve!: (ok: boolean) => void;
  const promise = new Promise<boolean>((r) => (resolve = r));
  pending = { promise, resolve };
  for (const listener of listeners) listener(true);
  return promise;
}

/** The prompt's answer: confirmed (the server accepted the password or code) or cancelled. */
export function settleReauthentication(ok: boolean): void {
  const current = pending;
  pending = null;
  for (const listener of listeners) listener(false);
  current?.resolve(ok);
}

export function subscribeReauthentication(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
