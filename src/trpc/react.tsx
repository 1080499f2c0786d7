"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { useState, type ReactNode } from "react";
import superjson from "superjson";
import { reauthLink } from "@/components/reauth/link";
import type { AppRouter } from "@/server/trpc/root";

export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        retry: (count, err) => {
          // 4xx answers will not change on retry.
          const status =
            err instanceof TRPCClientError ? (err.data as { httpStatus?: number } | undefined)?.httpStatus : undefined;
          return status !== undefined && status < 500 ? false : count < 2;
        },
      },
    },
  });
}

export function TRPCReactProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      // A money move refused for want of a recent password asks for it and is sent again (components/reauth).
      links: [reauthLink<AppRouter>(), httpBatchLink({ url: "/api/trpc", transformer: superjson })],
    }),
  );
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
