"use client";

// "Cancel" on an active coverage (owners and admins): the quote first — what
// would be refunded and by which rule — then a reason and whether to refund,
// then a confirmation naming who gets what back (./cancel-coverage-dialog).
import { useState } from "react";
import { lazyDialog } from "@/components/lazy-dialog";
import { Button } from "@/components/ui/button";

// Loaded when first opened (the quote, the form, the API's schema and zod with it);
// mounted only while open.
const CancelCoverageDialog = lazyDialog(
  () => import("./cancel-coverage-dialog").then((m) => m.CancelCoverageDialog),
  () => true,
);

export function CancelCoverageButton({
  coverageId,
  policyName,
  email,
}: {
  coverageId: string;
  policyName: string;
  email: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)} aria-label={`Cancel cover: ${policyName}`}>
        Cancel cover
      </Button>
      {open && (
        <CancelCoverageDialog coverageId={coverageId} policyName={policyName} email={email} onClose={() => setOpen(false)} />
      )}
    </>
  );
}
