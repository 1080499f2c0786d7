"use client";

// The devices signed in to the account (profile.devices): browser and system, address, when signed in and
// last active; sign one out, or every other one, after a confirmation. Signing this one out is signing out.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Laptop } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Badge, Card, EmptyState, ErrorState, Skeleton } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/dialog";
import type { Device } from "@/lib/schemas/profile";
import { toast } from "@/lib/toast";
import { errorInfo, useTRPC } from "@/trpc/react";

const when = (iso: string) =>
  new Date(iso).toLocaleString("en-GB", { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" });

export function DevicesCard() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const devices = useQuery(trpc.profile.devices.queryOptions());
  const revoke = useMutation(trpc.profile.revokeDevice.mutationOptions());
  const revokeOthers = useMutation(trpc.profile.revokeOtherDevices.mutationOptions());
  const [ending, setEnding] = useState<Device | null>(null);
  const [endingOthers, setEndingOthers] = useState(false);
  const router = useRouter();

  const done = async (message: string) => {
    toast.success(message);
    await queryClient.invalidateQueries({ queryKey: trpc.profile.devices.queryKey() });
  };
  const endOne = async () => {
    if (!ending) return;
    try {
      await revoke.mutateAsync({ id: ending.id });
      if (ending.current) {
        router.push("/sign-in");
        return;
      }
      setEnding(null);
      await done(`${ending.browser} on ${ending.system} is signed out`);
    } catch (err) {
      setEnding(null);
      toast.error(errorInfo(err).message);
    }
  };
  const endOthers = async () => {
    try {
      await revokeOthers.mutateAsync();
      setEndingOthers(false);
      await done("Every other device is signed out");
    } catch (err) {
      setEndingOthers(false);
      toast.error(errorInfo(err).message);
    }
  };
  const others = devices.data?.data.filter((d) => !d.current).length ?? 0;

  return (
    <Card className="overflow-hidden" role="region" aria-label="Signed-in devices">
      <div className="flex flex-col gap-3 border-b border-slate-200 p-4 sm:flex-row sm:items-start sm:justify-between sm:p-6">
        <div>
          <h2 className="text-base font-semibold">Signed-in devices</h2>
          <p className="mt-1 text-sm text-slate-600">
            Where your account is signed in now. Sign out a device you do not recognise, then change your password.
          </p>
        </div>
        {others > 0 && (
          <Button variant="secondary" onClick={() => setEndingOthers(true)} className="shrink-0">
            Sign out all other devices
          </Button>
        )}
      </div>
      {devices.isPending ? (
        <div className="space-y-3 p-4 sm:p-6" role="status" aria-label="Loading your devices">
          <Skeleton className="h-12 w-full" />
          <Skeleton className="h-12 w-full" />
        </div>
      ) : devices.isError ? (
        <div className="p-4 sm:p-6">
          <ErrorState message={errorInfo(devices.error).message} onRetry={() => devices.refetch()} />
        </div>
      ) : devices.data.data.length === 0 ? (
        <EmptyState title="No devices" description="No device is signed in." />
      ) : (
        <ul className="divide-y divide-slate-200" aria-label="Devices">
          {devices.data.data.map((d) => (
            <li key={d.id} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between sm:px-6">
              <div className="flex min-w-0 items-start gap-3">
                <Laptop className="mt-0.5 h-5 w-5 shrink-0 text-slate-400" aria-hidden />
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900">
                    {d.browser} on {d.system}
                    {d.current && <Badge tone="green">This device</Badge>}
                  </p>
                  <p className="mt-0.5 break-words text-xs text-slate-500">
                    {d.ipAddress ?? "Address unknown"} · signed in {when(d.signedInAt)} · last active {when(d.lastActiveAt)}
                  </p>
                </div>
              </div>
              <Button variant="secondary" size="sm" onClick={() => setEnding(d)} className="shrink-0 self-start sm:self-auto">
                {d.current ? "Sign out" : "Sign out device"}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={ending !== null}
        onOpenChange={(open) => !open && setEnding(null)}
        title={ending?.current ? "Sign out of this device?" : "Sign this device out?"}
        description={
          ending
            ? `${ending.browser} on ${ending.system}${ending.ipAddress ? ` (${ending.ipAddress})` : ""} will need your password to come back.`
            : ""
        }
        confirmLabel="Sign out"
        loading={revoke.isPending}
        onConfirm={endOne}
      />
      <ConfirmDialog
        open={endingOthers}
        onOpenChange={setEndingOthers}
        title="Sign out all other devices?"
        description={`${others} other ${others === 1 ? "device" : "devices"} will need your password to come back. This one stays signed in.`}
        confirmLabel="Sign them out"
        loading={revokeOthers.isPending}
        onConfirm={endOthers}
      />
    </Card>
  );
}
