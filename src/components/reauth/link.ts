// A tRPC link that meets `reauthentication_required` on a mutation by asking
// the user to confirm who they are (the prompt of ./store.ts), then sends the
// same mutation again once; cancelled, the refusal reaches the caller.
import type { TRPCLink } from "@trpc/client";
import type { AnyRouter } from "@trpc/server";
import { observable } from "@trpc/server/observable";
import { REAUTH_CODE, requestReauthentication } from "./store";

const isReauth = (err: unknown) => (err as { data?: { code?: unknown } } | null)?.data?.code === REAUTH_CODE;

export function reauthLink<R extends AnyRouter>(): TRPCLink<R> {
  return () =>
    ({ next, op }) =>
      observable((observer) => {
        let retried = false;
        let sub: { unsubscribe: () => void } | null = null;
        let closed = false;
        const send = () => {
          sub = next(op).subscribe({
            next: (value) => observer.next(value),
            complete: () => observer.complete(),
            error: (err) => {
              if (op.type !== "mutation" || retried || !isReauth(err)) return observer.error(err);
              retried = true;
              void requestReauthentication().then((ok) => {
                if (closed) return;
                if (ok) send();
                else observer.error(err);
              });
            },
          });
        };
        send();
        return () => {
          closed = true;
          sub?.unsubscribe();
        };
      });
}
