import { CircleCheck, CircleX } from "lucide-react";
import { Card } from "@/components/ui/card";
import { formatDateTime } from "@/lib/format";
import type { KybDecisionView } from "@/lib/schemas/admin";

/** Every decision on this business's KYB, newest first: who, when, what and why. */
export function DecisionHistory({ decisions }: { decisions: KybDecisionView[] }) {
  return (
    <Card>
      <h2 className="border-b border-slate-200 px-4 py-3 text-base font-semibold text-slate-900 sm:px-6">Decision history</h2>
      {decisions.length === 0 ? (
        <p className="px-4 py-6 text-sm text-slate-600 sm:px-6">No decisions yet: this is the first submission.</p>
      ) : (
        <ol aria-label="Decision history" className="divide-y divide-slate-200">
          {decisions.map((d) => {
            const approved = d.decision === "approved";
            const Icon = approved ? CircleCheck : CircleX;
            return (
              <li key={d.id} data-testid="kyb-decision" className="flex gap-3 px-4 py-4 sm:px-6">
                <Icon className={`mt-0.5 h-5 w-5 shrink-0 ${approved ? "text-emerald-600" : "text-red-600"}`} aria-hidden />
                <div className="min-w-0 space-y-1">
                  <p className="text-sm text-slate-900">
                    <span className="font-medium">{approved ? "Approved" : "Rejected"}</span> by {d.reviewer.name}
                  </p>
                  <p className="text-xs text-slate-600">
                    <span className="break-all">{d.reviewer.email}</span> · {formatDateTime(d.createdAt)}
                  </p>
                  {d.reason && (
                    <blockquote className="whitespace-pre-line break-words border-l-2 border-slate-300 pl-3 text-sm text-slate-700">
                      {d.reason}
                    </blockquote>
                  )}
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </Card>
  );
}
