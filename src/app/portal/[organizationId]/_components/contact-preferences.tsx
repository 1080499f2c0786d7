"use client";

// The policyholder's contact preferences: the mobile number on file (changed,
// or removed by saving it empty) and whether they want text messages about
// their cover (GET/PUT /api/portal/{org}/contact).
import { MessageSquare } from "lucide-react";
import { useEffect, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card, ErrorState, Skeleton } from "@/components/ui/card";
import { Field, FormError, Input } from "@/components/ui/field";
import { Switch } from "@/components/ui/switch";
import type { UploadError } from "@/components/upload/xhr-upload";
import type { PortalContact } from "@/lib/schemas/notifications";
import { portalButton, portalCall } from "./api";

type State = { status: "loading" } | { status: "error"; message: string } | { status: "ready"; contact: PortalContact };

export function ContactPreferences({ organizationId, businessName }: { organizationId: string; businessName: string }) {
  const path = `/api/portal/${organizationId}/contact`;
  const [state, setState] = useState<State>({ status: "loading" });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    portalCall<PortalContact>(path, { method: "GET" }).then(
      (contact) => live && setState({ status: "ready", contact }),
      (err: Error) => live && setState({ status: "error", message: err.message }),
    );
    return () => {
      live = false;
    };
  }, [path, attempt]);

  return (
    <Card className="p-5" data-testid="portal-contact">
      {state.status === "loading" ? (
        <div className="space-y-3" role="status" aria-label="Loading your contact preferences">
          <Skeleton className="h-4 w-48" />
          <Skeleton className="h-9 w-full sm:w-80" />
        </div>
      ) : state.status === "error" ? (
        <ErrorState
          message={state.message}
          onRetry={() => {
            setState({ status: "loading" });
            setAttempt((n) => n + 1);
          }}
        />
      ) : (
        <Preferences
          path={path}
          businessName={businessName}
          contact={state.contact}
          onSaved={(contact) => setState({ status: "ready", contact })}
        />
      )}
    </Card>
  );
}

function Preferences({
  path,
  businessName,
  contact,
  onSaved,
}: {
  path: string;
  businessName: string;
  contact: PortalContact;
  onSaved: (contact: PortalContact) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [phone, setPhone] = useState(contact.phone ?? "");
  const [phoneError, setPhoneError] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState<"phone" | "sms" | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  const put = async (what: "phone" | "sms", body: { phone?: string | null; smsOptOut?: boolean }) => {
    setSaving(what);
    setError(null);
    setSaved(null);
    try {
      const next = await portalCall<PortalContact>(path, { method: "PUT", body });
      onSaved(next);
      return next;
    } catch (err) {
      const e = err as UploadError;
      const field = e.fieldErrors?.find((f) => f.path === "phone");
      if (field && what === "phone") setPhoneError(field.message);
      else setError(e.message);
      return null;
    } finally {
      setSaving(null);
    }
  };

  const savePhone = async (e: FormEvent) => {
    e.preventDefault();
    setPhoneError(undefined);
    const next = await put("phone", { phone: phone.trim() || null });
    if (!next) return;
    setEditing(false);
    setPhone(next.phone ?? "");
    setSaved(next.phone ? `Your number is now ${next.phone}.` : "Your number was removed.");
  };

  return (
    <div className="space-y-5">
      <div className="space-y-3">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0 text-sm">
            <p className="font-medium text-slate-900">Mobile number</p>
            <p className="mt-0.5 text-slate-700" data-testid="portal-contact-phone">
              {contact.phone ? <span className="font-mono">{contact.phone}</span> : "None on file"}
            </p>
          </div>
          {!editing && (
            <Button
              variant="secondary"
              size="sm"
              onClick={() => {
                setEditing(true);
                setSaved(null);
              }}
            >
              {contact.phone ? "Change number" : "Add a number"}
            </Button>
          )}
        </div>
        {editing && (
          <form onSubmit={savePhone} noValidate className="space-y-3" aria-label="Your mobile number">
            <Field
              id="portal-phone"
              label="New mobile number"
              hint="With the country code (+234…) or as you dial it at home. Leave it empty to remove your number."
              error={phoneError}
            >
              <Input
                id="portal-phone"
                type="tel"
                inputMode="tel"
                autoComplete="tel"
                className="sm:w-80"
                value={phone}
                aria-invalid={!!phoneError}
                aria-describedby={phoneError ? "portal-phone-error" : undefined}
                onChange={(e) => {
                  setPhone(e.target.value);
                  setPhoneError(undefined);
                }}
              />
            </Field>
            <div className="flex flex-wrap gap-2">
              <Button type="submit" loading={saving === "phone"} className={portalButton}>
                Save number
              </Button>
              <Button
                type="button"
                variant="secondary"
                onClick={() => {
                  setEditing(false);
                  setPhone(contact.phone ?? "");
                  setPhoneError(undefined);
                }}
              >
                Cancel
              </Button>
            </div>
          </form>
        )}
      </div>
      <div className="flex items-start justify-between gap-4 border-t border-slate-200 pt-4">
        <div className="min-w-0 text-sm">
          <p className="flex items-center gap-1.5 font-medium text-slate-900">
            <MessageSquare className="h-4 w-4 text-slate-500" aria-hidden /> Text me about my cover
          </p>
          <p className="mt-0.5 text-slate-600" data-testid="portal-contact-sms">
            {contact.smsOptOut
              ? "Off: you get emails only. A sign-in code you ask for by text message still comes."
              : contact.phone
                ? `On: when ${businessName} sends text messages, receipts and news of your claims and renewals come to your number too.`
                : "On, once you add a number: receipts and news of your claims and renewals then come by text message too."}
          </p>
        </div>
        <Switch
          checked={!contact.smsOptOut}
          disabled={saving !== null}
          label="Text me about my cover"
          onCheckedChange={async (on) => {
            const next = await put("sms", { smsOptOut: !on });
            if (next) setSaved(next.smsOptOut ? "Text messages turned off." : "Text messages turned on.");
          }}
        />
      </div>
      <FormError message={error} />
      {saved && (
        <p role="status" className="text-sm text-emerald-700">
          {saved}
        </p>
      )}
    </div>
  );
}
