"use client";

// Two-factor sign-in for the signed-in user (better-auth's twoFactor plugin):
// off → Turn on (password) → QR code and key → a code from the app confirms →
// the 10 backup codes, shown once → on. On → New backup codes (password), or
// Turn off (password and a current code or a backup code, after a confirmation).
// The steps' forms (react-hook-form, zod) and better-auth's client load after
// the page (./two-factor-steps), not with it.
import { Copy, Download, ShieldCheck, ShieldOff } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { lazyComponent } from "@/components/lazy-component";
import { Badge, Card, Skeleton } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { loadAuthClient } from "@/lib/lazy-auth-client";
import { toast } from "@/lib/toast";

const loadSteps = () => import("./two-factor-steps");
/** Where a step's form goes while its code loads (preloaded on mount, so seldom seen). */
const stepFallback = (
  <div className="mt-6 border-t border-slate-200 pt-6" aria-busy="true">
    <Skeleton className="h-44 w-full max-w-md" />
  </div>
);
const PasswordStep = lazyComponent(() => loadSteps().then((m) => m.PasswordStep), stepFallback);
const ScanStep = lazyComponent(() => loadSteps().then((m) => m.ScanStep), stepFallback);
const TurnOffStep = lazyComponent(() => loadSteps().then((m) => m.TurnOffStep), stepFallback);

type Step =
  | { kind: "idle" }
  | { kind: "password" }
  | { kind: "scan"; uri: string; backupCodes: string[] }
  | { kind: "codes"; backupCodes: string[]; enrolled: boolean }
  | { kind: "new-codes" }
  | { kind: "turn-off" };

export function TwoFactorCard({
  enabled: initiallyEnabled,
  email,
  doneHref,
}: {
  enabled: boolean;
  email: string;
  /** Where to go once set up and the backup codes are kept (the enrolment page: the dashboard). */
  doneHref?: string;
}) {
  const router = useRouter();
  const [enabled, setEnabled] = useState(initiallyEnabled);
  const [step, setStep] = useState<Step>({ kind: "idle" });
  const idle = () => setStep({ kind: "idle" });
  // Every action opens one of the steps: have their code (and better-auth's client) ready after the page.
  useEffect(() => PasswordStep.preload(), []);

  return (
    <Card className="p-4 sm:p-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h2 className="flex items-center gap-2 text-lg font-semibold text-slate-900">
            Two-factor sign-in <Badge tone={enabled ? "green" : "slate"}>{enabled ? "On" : "Off"}</Badge>
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            {enabled
              ? "Signing in asks for a code from your authenticator app after your password."
              : "Ask for a code from an authenticator app (Google Authenticator, 1Password, Authy…) after your password."}
          </p>
        </div>
        {step.kind === "idle" && (
          <div className="flex flex-wrap gap-2">
            {enabled ? (
              <>
                <Button variant="secondary" onClick={() => setStep({ kind: "new-codes" })}>
                  New backup codes
                </Button>
                <Button variant="danger" onClick={() => setStep({ kind: "turn-off" })}>
                  <ShieldOff className="h-4 w-4" aria-hidden /> Turn off
                </Button>
              </>
            ) : (
              <Button onClick={() => setStep({ kind: "password" })}>
                <ShieldCheck className="h-4 w-4" aria-hidden /> Turn on
              </Button>
            )}
          </div>
        )}
      </div>

      {step.kind === "password" && (
        <PasswordStep
          email={email}
          submitLabel="Continue"
          intro="Enter your password to set up your authenticator app."
          onCancel={idle}
          run={async (password) => {
            const authClient = await loadAuthClient();
            const { data, error } = await authClient.twoFactor.enable({ password });
            if (error || !data || !("totpURI" in data) || !data.totpURI) return error ?? { status: 500 };
            setStep({ kind: "scan", uri: data.totpURI, backupCodes: data.backupCodes ?? [] });
            return null;
          }}
          what="turn on two-factor sign-in"
        />
      )}
      {step.kind === "scan" && (
        <ScanStep
          uri={step.uri}
          onCancel={idle}
          onConfirmed={() => {
            setEnabled(true);
            setStep({ kind: "codes", backupCodes: step.backupCodes, enrolled: true });
            // On the enrolment page the refresh would leave for the dashboard before the codes are kept.
            if (!doneHref) router.refresh();
          }}
        />
      )}
      {step.kind === "codes" && (
        <BackupCodes
          codes={step.backupCodes}
          enrolled={step.enrolled}
          onDone={() => (doneHref && step.enrolled ? router.push(doneHref) : idle())}
        />
      )}
      {step.kind === "new-codes" && (
        <PasswordStep
          email={email}
          submitLabel="Make new codes"
          intro="New backup codes replace the old ones: those stop working."
          onCancel={idle}
          run={async (password) => {
            const authClient = await loadAuthClient();
            const { data, error } = await authClient.twoFactor.generateBackupCodes({ password });
            if (error || !data) return error ?? { status: 500 };
            setStep({ kind: "codes", backupCodes: data.backupCodes, enrolled: false });
            return null;
          }}
          what="make new backup codes"
        />
      )}
      {step.kind === "turn-off" && (
        <TurnOffStep
          email={email}
          onCancel={idle}
          onDone={() => {
            setEnabled(false);
            idle();
            toast.success("Two-factor sign-in is off.");
            router.refresh();
          }}
        />
      )}
    </Card>
  );
}

function BackupCodes({ codes, enrolled, onDone }: { codes: string[]; enrolled: boolean; onDone: () => void }) {
  const text = `Coverdesk backup codes (each works once)\n\n${codes.join("\n")}\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success("Backup codes copied.");
    } catch {
      toast.error("Could not copy: select the codes instead.");
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = "coverdesk-backup-codes.txt";
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <section aria-labelledby="backup-codes-title" className="mt-6 space-y-4 border-t border-slate-200 pt-6">
      <h3 id="backup-codes-title" className="font-semibold text-slate-900">
        {enrolled ? "Two-factor sign-in is on. Keep your backup codes" : "Your new backup codes"}
      </h3>
      <p className="text-sm text-slate-700">
        Each code signs you in once if you lose your phone. They are shown only now: copy or download them and keep them
        somewhere safe.
      </p>
      <ul aria-label="Backup codes" className="grid max-w-md grid-cols-2 gap-2 font-mono text-sm text-slate-900">
        {codes.map((code) => (
          <li key={code} className="rounded bg-slate-100 px-2 py-1 text-center">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={copy}>
          <Copy className="h-4 w-4" aria-hidden /> Copy
        </Button>
        <Button variant="secondary" onClick={download}>
          <Download className="h-4 w-4" aria-hidden /> Download .txt
        </Button>
        <Button onClick={onDone}>Done</Button>
      </div>
    </section>
  );
}
