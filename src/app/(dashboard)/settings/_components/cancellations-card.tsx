"use client";

// Cancellations: the cooling-off days within which a cancelled cover gets its
// whole premium back (afterwards the unused days, pro rata), checked with the
// API's own schema — loaded (with zod) when the form is first used, not with
// the page.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { lazyModule } from "@/components/lazy-module";
import { Button } from "@/components/ui/button";
import { Card, ErrorState, Skeleton } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/field";
import { toast } from "@/lib/toast";
import { errorInfo, useTRPC } from "@/trpc/react";
import { useMe } from "../../_components/me";

/** The API's settings schema (and zod): loaded when the form is focused or submitted. */
const settingsSchema = lazyModule(() => import("@/lib/schemas/settings"));

export function CancellationsCard() {
  const trpc = useTRPC();
  const settings = useQuery(trpc.settings.get.queryOptions());
  return (
    <Card className="p-6" role="region" aria-label="Cancellations">
      <h2 className="text-base font-semibold">Cancellations</h2>
      <p className="mb-5 mt-1 text-sm text-slate-600">
        When you or a policyholder cancel a cover within the cooling-off days of its period&apos;s start, the whole premium of the
        period is refunded; later, the unused days of the period, pro rata. Nothing is refunded after a claim on the cover was
        approved or paid in the period.
      </p>
      {settings.isPending ? (
        <Skeleton className="h-10 w-64" />
      ) : settings.isError ? (
        <ErrorState message={errorInfo(settings.error).message} onRetry={() => settings.refetch()} />
      ) : (
        <CoolingOffForm key={settings.data.coverage.coolingOffDays} saved={settings.data.coverage.coolingOffDays} />
      )}
    </Card>
  );
}

function CoolingOffForm({ saved }: { saved: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { can } = useMe();
  const update = useMutation(trpc.settings.update.mutationOptions());
  const [text, setText] = useState(String(saved));
  const [error, setError] = useState<string | undefined>();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const value = /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN;
    // Without the schema (its chunk failed to load) the server's check, the same one, answers.
    const parsed = (await settingsSchema().catch(() => null))?.UpdateSettingsInput.safeParse({
      coverage: { coolingOffDays: value },
    });
    if (parsed && !parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    try {
      await update.mutateAsync({ coverage: { coolingOffDays: value } });
      toast.success("Cooling-off days saved");
      await queryClient.invalidateQueries({ queryKey: trpc.settings.get.queryKey() });
    } catch (err) {
      const info = errorInfo(err);
      const field = info.fieldErrors.find((f) => f.path.startsWith("coverage"));
      if (field) setError(field.message);
      else toast.error(info.message);
    }
  };

  return (
    <form onSubmit={submit} onFocus={settingsSchema.preload} noValidate className="space-y-4">
      <Field
        id="cooling-off-days"
        label="Cooling-off days"
        hint="A whole number from 0 to 30; 0 means no cooling-off."
        error={error}
      >
        <Input
          id="cooling-off-days"
          inputMode="numeric"
          className="sm:w-32"
          value={text}
          disabled={!can.admin}
          aria-invalid={!!error}
          aria-describedby={error ? "cooling-off-days-error" : undefined}
          onChange={(e) => {
            setText(e.target.value);
            setError(undefined);
          }}
        />
      </Field>
      {can.admin && (
        <div className="flex justify-end">
          <Button type="submit" loading={update.isPending} disabled={text.trim() === String(saved)}>
            Save cooling-off days
          </Button>
        </div>
      )}
    </form>
  );
}
