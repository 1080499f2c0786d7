"use client";

import { FilePlus2 } from "lucide-react";
import { useState } from "react";
import { lazyDialog } from "@/components/lazy-dialog";
import { Button } from "@/components/ui/button";

// Loaded when first opened (its form, schema and zod with it).
const FileClaimDialog = lazyDialog(() => import("./file-claim-dialog").then((m) => m.FileClaimDialog));

/** Staff file a claim for a customer (see ./file-claim-dialog). */
export function FileClaimButton({
  customerEmail,
  policies,
}: {
  /** Filing from a customer's page: the email is theirs, and the policies those they hold. */
  customerEmail?: string;
  policies?: { id: string; name: string }[];
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>
        <FilePlus2 className="h-4 w-4" aria-hidden /> File a claim
      </Button>
      <FileClaimDialog open={open} onOpenChange={setOpen} customerEmail={customerEmail} policies={policies} />
    </>
  );
}
