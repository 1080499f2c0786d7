"use client";

// Renewal reminder days: a comma-separated list, checked here with the same
// sentences the server uses (src/lib/field-messages.ts), which still judges it.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { M } from "@/lib/field-messages";
import { toast } from "@/lib/toast";
import { Button } from "@/components/ui/button";
import { Card, ErrorState, Skeleton } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/field";
import { errorInfo, useTRPC } from "@/trpc/react";
import { useMe } from "../../_components/me";

const MAX_DAYS = 5;

/** The days typed, or the sentence saying what is wrong with them. */
export function parseDays(text: string): { days: number[] } | { error: string } {
  const tokens = text
    .split(/[\s,;]+/)
    .map((t) => t.trim())
    .filter(Boolean);
  const days: number[] = [];
  for (const t of tokens) {
    if (!/^\d+$/.test(t)) return { error: M.reminderDay };
    const n = Number(t);
    if (n < 1 || n > 90) return { error: M.reminderDay };
    days.push(n);
  }
  if (days.length > MAX_DAYS) return { error: M.listMax(MAX_DAYS) };
  if (new Set(days).size !== days.length) return { error: M.noRepeats("day") };
  return { days: days.sort((a, b) => b - a) };
}

const describe = (days: number[]) =>
  days.length === 0
    ? "No reminders are sent."
    : `Policyholders are emailed ${days.map((d) => `${d} day${d === 1 ? "" : "s"}`).join(", ")} before their cover ends.`;

export function RemindersCard() {
  const trpc = useTRPC();
  const settings = useQuery(trpc.settings.get.queryOptions());

  return (
    <Card className="p-6" role="region" aria-label="Renewal reminders">
      <h2 className="text-base font-semibold">Renewal reminders</h2>
      <p className="mb-5 mt-1 text-sm text-slate-600">
        We email each policyholder before their cover ends, with a link to renew on your portal. Each reminder goes once per
        cover period; new days apply to every cover that has not ended.
      </p>
      {settings.isPending ? (
        <Skeleton className="h-10 w-64" />
      ) : settings.isError ? (
        <ErrorState message={errorInfo(settings.error).message} onRetry={() => settings.refetch()} />
      ) : (
        // Saved (or changed elsewhere): the form starts again from what the server holds.
        <RemindersForm key={settings.data.reminders.daysBefore.join(",")} saved={settings.data.reminders.daysBefore} />
      )}
    </Card>
  );
}

function RemindersForm({ saved }: { saved: number[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { can } = useMe();
  const update = useMutation(trpc.settings.update.mutationOptions());
  const [text, setText] = useState(saved.join(", "));
  const [error, setError] = useState<string | undefined>();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = parseDays(text);
    if ("error" in parsed) return setError(parsed.error);
    setError(undefined);
    try {
      await update.mutateAsync({ reminders: { daysBefore: parsed.days } });
      toast.success(parsed.days.length ? "Reminder days saved" : "Renewal reminders turned off");
      await queryClient.invalidateQueries({ queryKey: trpc.settings.get.queryKey() });
    } catch (err) {
      const info = errorInfo(err);
      const field = info.fieldErrors.find((f) => f.path.startsWith("reminders"));
      if (field) setError(field.message);
      else toast.error(info.message);
    }
  };

  const parsedNow = parseDays(text);
  const dirty = "error" in parsedNow || parsedNow.days.join(",") !== saved.join(",");

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <Field
        id="reminder-days"
        label="Days before the end of cover"
        hint="Up to 5 whole numbers from 1 to 90, separated by commas. Leave it empty to send no reminders."
        error={error}
      >
        <Input
          id="reminder-days"
          inputMode="numeric"
          placeholder="14, 3"
          className="sm:w-64"
          value={text}
          disabled={!can.admin}
          aria-invalid={!!error}
          aria-describedby={error ? "reminder-days-error" : undefined}
          onChange={(e) => {
            setText(e.target.value);
            setError(undefined);
          }}
        />
      </Field>
      <p className="text-sm text-slate-700" data-testid="reminder-days-summary">
        {describe(saved)}
      </p>
      {can.admin && (
        <div className="flex justify-end">
          <Button type="submit" loading={update.isPending} disabled={!dirty}>
            Save reminders
          </Button>
        </div>
      )}
    </form>
  );
}
