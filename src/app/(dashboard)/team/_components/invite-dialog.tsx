"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "@/lib/toast";
import { z } from "@/lib/messages";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input, FormError } from "@/components/ui/field";
import { NativeSelect } from "@/components/ui/select";
import { InviteMemberInput } from "@/lib/schemas/team";
import { errorInfo, useTRPC } from "@/trpc/react";

type Values = z.input<typeof InviteMemberInput>;

export function InviteDialog({
  open,
  onOpenChange,
  onInvited,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onInvited: () => void;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Invite a team member"
      description="We email them a link to join; it is valid for 7 days."
    >
      {open && <InviteForm onCancel={() => onOpenChange(false)} onInvited={() => (onInvited(), onOpenChange(false))} />}
    </Dialog>
  );
}

function InviteForm({ onCancel, onInvited }: { onCancel: () => void; onInvited: () => void }) {
  const trpc = useTRPC();
  const invite = useMutation(trpc.team.invite.mutationOptions());
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values>({ resolver: zodResolver(InviteMemberInput), defaultValues: { email: "", role: "MEMBER" } });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      const invitation = await invite.mutateAsync(values);
      toast.success(`Invitation sent to ${invitation.email}`);
      onInvited();
    } catch (err) {
      const info = errorInfo(err);
      const field = info.fieldErrors.find((e) => e.path === "email" || e.path === "role");
      if (field) form.setError(field.path as "email" | "role", { message: field.message });
      else if (info.code === "already_member" || info.code === "invitation_pending")
        form.setError("email", { message: info.message });
      else setFormError(info.message);
    }
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <FormError message={formError} />
      <Field id="invite-email" label="Email" error={errors.email?.message}>
        <Input id="invite-email" type="email" autoFocus aria-invalid={!!errors.email} {...form.register("email")} />
      </Field>
      <Field
        id="invite-role"
        label="Role"
        hint="Admins also manage the team, API keys, settings and payouts."
        error={errors.role?.message}
      >
        <NativeSelect id="invite-role" {...form.register("role")}>
          <option value="MEMBER">Member</option>
          <option value="ADMIN">Admin</option>
        </NativeSelect>
      </Field>
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={isSubmitting}>
          Send invitation
        </Button>
      </div>
    </form>
  );
}
