"use client";

import { QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { useEffect, useState, type ReactNode } from "react";
import superjson from "superjson";
import { reauthLink } from "@/components/reauth/link";
import type { AppRouter } from "@/server/trpc/root";
import { makeQueryClient } from "./query-client";

export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

export function TRPCReactProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(() => makeQueryClient());
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      // A money move refused for want of a recent password asks for it and is sent again (components/reauth).
      links: [reauthLink<AppRouter>(), httpBatchLink({ url: "/api/trpc", transformer: superjson })],
    }),
  );
  // Pages now open with their data, rendered on the server: `<html data-hydrated>` says the page also answers
  // clicks and typing (browser specs wait for it before acting; so can a synthetic monitor).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}

export interface ErrorInfo {
  message: string;
  code?: string;
  fieldErrors: { path: string; message: string }[];
}

/** The message, stable code and field errors of a failed call, for forms and toasts. */
export function errorInfo(err: unknown): ErrorInfo {
  if (err instanceof TRPCClientError) {
    const data = err.data as { code?: string; errors?: { path: string; message: string }[] } | undefined;
    return { message: err.message, code: data?.code, fieldErrors: data?.errors ?? [] };
  }
  return { message: err instanceof Error ? err.message : "Something went wrong", fieldErrors: [] };
}
