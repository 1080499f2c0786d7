"use client";

import { useMutation } from "@tanstack/react-query";
import { toast } from "@/lib/toast";
import { Dialog } from "@/components/ui/dialog";
import { OrganizationForm } from "@/components/organization-form";
import { errorInfo, useTRPC } from "@/trpc/react";

export function CreateOrganizationDialog({
  open,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: () => void;
}) {
  const trpc = useTRPC();
  const create = useMutation(trpc.organizations.create.mutationOptions());
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Create organization" description="You will be its owner.">
      <OrganizationForm
        submitLabel="Create organization"
        onSubmit={async (values) => {
          try {
            await create.mutateAsync(values);
            toast.success("Organization created");
            onCreated();
          } catch (err) {
            return errorInfo(err);
          }
        }}
      />
    </Dialog>
  );
}
