"use client";

import { lazyComponent } from "@/components/lazy-component";
import { Card, Skeleton } from "@/components/ui/card";

/**
 * DocumentUploadForm (./upload-form) with its dropzone (uploadthing's hook)
 * split from the page's first load. Client only: a skeleton of its size stands
 * in until the form is there and ready to use, just after the page.
 */
export const LazyDocumentUploadForm = lazyComponent(
  () => import("./upload-form").then((m) => m.DocumentUploadForm),
  // The form's own height (file and fields side by side from 768 px), so nothing moves when it appears.
  <Card className="p-4 sm:p-6">
    <Skeleton className="h-[27rem] w-full md:h-[16.625rem]" />
  </Card>,
  { clientOnly: true },
);
