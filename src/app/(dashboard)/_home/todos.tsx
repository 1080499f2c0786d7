"use client";

import { ArrowRight, BadgeCheck, KeyRound, Landmark, type LucideIcon } from "lucide-react";
import Link from "next/link";
import { Card } from "@/components/ui/card";
import type { DashboardStats } from "../_analytics/types";

interface Todo {
  id: string;
  href: string;
  icon: LucideIcon;
  title: string;
  body: string;
}

const KYB_BODY: Record<DashboardStats["todos"]["kybStatus"], string> = {
  not_submitted: "Upload your certificate of incorporation and tax certificate. Withdrawals need an approved business.",
  pending: "Your documents are being reviewed. We email you when it is done.",
  rejected: "Your documents were not accepted. See why and resubmit corrected ones.",
  approved: "",
};

/**
 * What an owner or admin still has to do before the business can take and
 * withdraw money. Each step disappears once done, the card once all are; the
 * steps are all owner/admin actions, so members never see it.
 */
export function Todos({ todos, canAct }: { todos: DashboardStats["todos"]; canAct: boolean }) {
  if (!canAct) return null;
  const steps: Todo[] = [];
  if (todos.kybStatus !== "approved") {
    steps.push({
      id: "kyb",
      href: "/kyb",
      icon: BadgeCheck,
      title: todos.kybStatus === "pending" ? "Business verification (KYB) in review" : "Finish your business verification (KYB)",
      body: KYB_BODY[todos.kybStatus],
    });
  }
  if (!todos.hasVerifiedBankAccount) {
    steps.push({
      id: "bank",
      href: "/bank-accounts",
      icon: Landmark,
      title: "Verify a bank account",
      body: "Add the account your earnings are paid out to and confirm it with the code we send.",
    });
  }
  if (!todos.hasApiKey) {
    steps.push({
      id: "api-key",
      href: "/api-keys",
      icon: KeyRound,
      title: "Create an API key",
      body: "Let your website or back office sell policies and file claims through the Coverdesk API.",
    });
  }
  if (steps.length === 0) return null;
  const done = 3 - steps.length;

  return (
    <Card className="p-4 sm:p-5" data-testid="todos">
      <section aria-labelledby="todos-heading">
        <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="todos-heading" className="text-base font-semibold text-slate-900">
            Finish setting up
          </h2>
          <p className="text-xs text-slate-600">{done} of 3 done</p>
        </div>
        <ul className="grid gap-3 md:grid-cols-3">
          {steps.map((s) => (
            <li key={s.id} data-testid={`todo-${s.id}`}>
              <Link
                href={s.href}
                className="group flex h-full gap-3 rounded-md border border-slate-200 p-3 hover:border-brand-200 hover:bg-brand-50/40"
              >
                <s.icon className="mt-0.5 h-5 w-5 shrink-0 text-brand-600" aria-hidden />
                <span className="min-w-0">
                  <span className="block text-sm font-medium text-slate-900">{s.title}</span>
                  <span className="mt-0.5 block text-xs text-slate-600">{s.body}</span>
                  <span className="mt-2 inline-flex items-center gap-1 text-xs font-medium text-brand-700">
                    Open <ArrowRight className="h-3.5 w-3.5" aria-hidden />
                  </span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </Card>
  );
}
