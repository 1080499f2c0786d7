"use client";

import { lazyComponent } from "@/components/lazy-component";
import { Skeleton } from "@/components/ui/card";

/**
 * PolicyForm (./policy-form) with react-hook-form split from the page's first
 * load. Client only: the new-policy page shows its skeleton (as the edit page
 * does while the policy loads) until the form is there and ready to type in.
 */
export const LazyPolicyForm = lazyComponent(
  () => import("./policy-form").then((m) => m.PolicyForm),
  // The form's own height (fields stacked below 640 px), so nothing moves when it appears.
  <Skeleton className="h-[58.5rem] w-full sm:h-[39.5rem]" />,
  { clientOnly: true },
);
