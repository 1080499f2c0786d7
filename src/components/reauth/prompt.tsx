"use client";

// Mounted once by the dashboard: listens for `requestReauthentication()` and
// shows the dialog (its code loads when first needed).
import { useEffect, useState } from "react";
import { lazyDialog } from "@/components/lazy-dialog";
import { settleReauthentication, subscribeReauthentication } from "./store";

const ReauthDialog = lazyDialog(() => import("./dialog").then((m) => m.ReauthDialog));

export function ReauthPrompt({ email, twoFactor }: { email: string; twoFactor: boolean }) {
  const [open, setOpen] = useState(false);
  useEffect(() => subscribeReauthentication(setOpen), []);
  return (
    <ReauthDialog
      open={open}
      email={email}
      twoFactor={twoFactor}
      onConfirmed={() => settleReauthentication(true)}
      onCancel={() => settleReauthentication(false)}
    />
  );
}
