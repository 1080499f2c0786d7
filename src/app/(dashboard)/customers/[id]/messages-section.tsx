"use client";

// The messages sent (or waiting to go) to the customer, by email and by text
// message: receipts, claim news, reminders, sign-in codes. From the customer
// query (its newest 50).
import { Mail, MessageSquare } from "lucide-react";
import { ResponsiveTable } from "@/components/responsive-table";
import { Badge, Card } from "@/components/ui/card";
import { formatDateTime } from "@/lib/format";
import type { CustomerMessage } from "@/lib/schemas/customers";

const KIND_LABELS: Record<string, string> = {
  customer_receipt: "Receipt",
  claim_received: "Claim received",
  claim_approved: "Claim approved",
  claim_rejected: "Claim rejected",
  claim_paid: "Claim paid",
  refund: "Refund",
  cancellation: "Cover cancelled",
  renewal_reminder: "Renewal reminder",
  auto_renewal_reminder: "Automatic renewal reminder",
  renewal_failed: "Renewal charge failed",
  renewal_stopped: "Renewal stopped",
  card_expiring: "Card expiring",
  premium_change: "Premium change",
  portal_code: "Sign-in code",
};

/** "claim_approved" → "Claim approved"; an unknown kind reads as its words. */
export const messageKindLabel = (kind: string) => KIND_LABELS[kind] ?? `${kind.charAt(0).toUpperCase()}${kind.slice(1).replace(/_/g, " ")}`;

const TONE = { sent: "green", queued: "amber", failed: "red" } as const;
const STATUS_WORD = { sent: "Sent", queued: "Queued", failed: "Failed" } as const;

function Channel({ channel }: { channel: CustomerMessage["channel"] }) {
  const Icon = channel === "sms" ? MessageSquare : Mail;
  return (
    <span className="inline-flex items-center gap-1 text-xs text-slate-600">
      <Icon className="h-3.5 w-3.5 shrink-0" aria-hidden />
      {channel === "sms" ? "Text message" : "Email"}
    </span>
  );
}

function Status({ m }: { m: CustomerMessage }) {
  const tries = m.attempts > 1 ? ` after ${m.attempts} tries` : "";
  return (
    <span className="inline-flex flex-col items-start gap-0.5" title={m.status === "failed" && m.lastError ? m.lastError : undefined}>
      <Badge tone={TONE[m.status]}>{STATUS_WORD[m.status]}</Badge>
      {m.status === "failed" && (
        <span className="text-xs text-red-700 [overflow-wrap:anywhere]">
          {m.lastError ? (
            <>
              <span className="sr-only">Reason: </span>
              {m.lastError}
            </>
          ) : (
            "No reason given"
          )}
          {tries}
        </span>
      )}
      {m.status === "queued" && m.lastError && (
        <span className="text-xs text-amber-800 [overflow-wrap:anywhere]">
          <span className="sr-only">Last attempt failed: </span>
          {m.lastError}
          {tries}, tried again soon
        </span>
      )}
    </span>
  );
}

export function MessagesSection({ messages }: { messages: CustomerMessage[] }) {
  return (
    <Card role="region" aria-label="Messages">
      <h2 className="border-b border-slate-200 px-4 py-3 text-base font-semibold sm:px-6">
        Messages <span className="font-normal text-slate-600">({messages.length})</span>
      </h2>
      {messages.length === 0 ? (
        <p className="px-6 py-4 text-sm text-slate-600">
          No messages yet. Receipts, claim news, reminders and sign-in codes sent to this customer show here.
        </p>
      ) : (
        <ResponsiveTable
          label="Messages to the customer"
          rows={messages}
          rowKey={(m) => m.id}
          testId="customer-message"
          columns={[
            {
              header: "Message",
              className: "whitespace-nowrap",
              cell: (m) => (
                <div className="space-y-0.5">
                  <p className="font-medium text-slate-900">{messageKindLabel(m.kind)}</p>
                  <Channel channel={m.channel} />
                </div>
              ),
            },
            {
              header: "To",
              wide: true,
              cell: (m) => <span className={m.channel === "sms" ? "font-mono text-xs" : "text-xs"}>{m.recipient}</span>,
            },
            {
              header: "Preview",
              wide: true,
              className: "max-w-md",
              cell: (m) =>
                m.kind === "portal_code" ? (
                  // The code signs the policyholder in: it is theirs alone, not shown to the team.
                  <span className="text-slate-600">A one-time sign-in code (not shown here)</span>
                ) : m.preview ? (
                  <span className="text-slate-800">{m.preview}</span>
                ) : (
                  <span className="text-slate-600">{m.status === "queued" ? "Written when it is sent" : "—"}</span>
                ),
            },
            { header: "Status", cell: (m) => <Status m={m} /> },
            { header: "Date", cell: (m) => <span className="text-xs">{formatDateTime(m.sentAt ?? m.createdAt)}</span> },
          ]}
        />
      )}
    </Card>
  );
}
