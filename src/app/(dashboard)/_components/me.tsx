"use client";

// The signed-in user's role and capabilities in the active organization, as
// the server computes them (actor.ts `can()`): pages show only the controls
// the services will accept. The layout renders with the server's answer; the
// query keeps it fresh (a role changed meanwhile shows on the next refetch).
import { useQuery } from "@tanstack/react-query";
import { createContext, useContext, type ReactNode } from "react";
import type { Me } from "@/lib/schemas/organizations";
import { useTRPC } from "@/trpc/react";

const MeContext = createContext<Me | null>(null);

export function MeProvider({ me, children }: { me: Me; children: ReactNode }) {
  return <MeContext.Provider value={me}>{children}</MeContext.Provider>;
}

export function useMe(): Me {
  const initial = useContext(MeContext);
  if (!initial) throw new Error("useMe() outside the dashboard layout");
  const trpc = useTRPC();
  const me = useQuery(trpc.organizations.me.queryOptions(undefined, { initialData: initial }));
  return me.data ?? initial;
}

/** A read-only notice for what the user's role lets them see but not change. */
export function ReadOnlyNotice({ children }: { children: ReactNode }) {
  return (
    <p role="note" className="rounded-md border border-slate-200 bg-slate-50 px-4 py-3 text-sm text-slate-600">
      {children}
    </p>
  );
}
