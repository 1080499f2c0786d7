"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useCallback } from "react";

/**
 * Navigates after the user or organization changed (sign-in, sign-out,
 * switch): drops every cached query and re-renders the server layout.
 */
export function useFreshNavigation() {
  const router = useRouter();
  const queryClient = useQueryClient();
  return useCallback(
    (href: string) => {
      queryClient.clear();
      router.replace(href);
      router.refresh();
    },
    [router, queryClient],
  );
}
