"use client";

// The user's name (profile.update): shown to their team, in invitations they send and on the dashboard's welcome.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card, ErrorState, Skeleton } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/field";
import { toast } from "@/lib/toast";
import { errorInfo, useTRPC } from "@/trpc/react";

export function NameCard() {
  const trpc = useTRPC();
  const profile = useQuery(trpc.profile.get.queryOptions());

  return (
    <Card className="p-4 sm:p-6" role="region" aria-label="Your name">
      <h2 className="text-base font-semibold">Your name</h2>
      {profile.isPending ? (
        <div className="mt-4 space-y-2" role="status" aria-label="Loading your profile">
          <Skeleton className="h-4 w-24" />
          <Skeleton className="h-10 w-full sm:w-80" />
        </div>
      ) : profile.isError ? (
        <div className="mt-4">
          <ErrorState message={errorInfo(profile.error).message} onRetry={() => profile.refetch()} />
        </div>
      ) : (
        // Keyed by the saved name: the field starts again from what the server holds after a save.
        <NameForm key={profile.data.name} saved={profile.data} />
      )}
    </Card>
  );
}

function NameForm({ saved }: { saved: { name: string; email: string } }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const update = useMutation(trpc.profile.update.mutationOptions());
  const router = useRouter();
  const [name, setName] = useState(saved.name);
  const [error, setError] = useState<string | undefined>();

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    try {
      await update.mutateAsync({ name });
      toast.success("Name saved");
      await queryClient.invalidateQueries({ queryKey: trpc.profile.get.queryKey() });
      // The shell's name and the home's welcome are rendered on the server.
      router.refresh();
    } catch (err) {
      const info = errorInfo(err);
      const field = info.fieldErrors.find((e) => e.path === "name");
      if (field) setError(field.message);
      else toast.error(info.message);
    }
  };

  return (
    <form onSubmit={save} noValidate className="mt-4 space-y-4">
      <p className="text-sm text-slate-600">
        Signed in as <strong className="font-medium text-slate-800">{saved.email}</strong>. Your phone for SMS alerts is set in{" "}
        <Link href="/settings/notifications" className="font-medium text-brand-700 underline">
          Notifications
        </Link>
        ; your password from the account menu.
      </p>
      <Field id="profile-name" label="Name" error={error} hint="Shown to your team and in the invitations you send.">
        <Input
          id="profile-name"
          value={name}
          maxLength={120}
          autoComplete="name"
          className="sm:w-80"
          aria-invalid={!!error}
          aria-describedby={error ? "profile-name-error" : undefined}
          onChange={(e) => setName(e.target.value)}
        />
      </Field>
      <Button type="submit" loading={update.isPending} disabled={name.trim() === saved.name}>
        Save name
      </Button>
    </form>
  );
}
