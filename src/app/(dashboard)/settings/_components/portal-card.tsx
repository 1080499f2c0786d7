"use client";

// The policyholder portal's address, in the mode the dashboard shows.
import { useQuery } from "@tanstack/react-query";
import { ExternalLink } from "lucide-react";
import { CopyButton } from "@/components/copy-button";
import { Button } from "@/components/ui/button";
import { Card, ErrorState, Skeleton } from "@/components/ui/card";
import { errorInfo, useTRPC } from "@/trpc/react";

export function PortalCard() {
  const trpc = useTRPC();
  const portal = useQuery(trpc.settings.portal.queryOptions());

  return (
    <Card className="p-6" role="region" aria-label="Policyholder portal">
      <h2 className="text-base font-semibold">Policyholder portal</h2>
      <p className="mb-5 mt-1 text-sm text-slate-600">
        Your policyholders sign in here with their email address and a one-time code to see their cover, download
        certificates, renew and file claims. Renewal reminders link here; share it on your website and in your emails.
      </p>
      {portal.isPending ? (
        <Skeleton className="h-10 w-full" />
      ) : portal.isError ? (
        <ErrorState message={errorInfo(portal.error).message} onRetry={() => portal.refetch()} />
      ) : (
        <div className="space-y-3">
          {!portal.data.livemode && (
            <p role="note" className="text-sm text-amber-800">
              This is your test-mode portal: it shows test data only. Switch off test mode for the one your customers use.
            </p>
          )}
          <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
            <code
              className="min-w-0 flex-1 break-all rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm"
              data-testid="portal-link"
            >
              {portal.data.url}
            </code>
            <div className="flex gap-2">
              <CopyButton value={portal.data.url} label="Copy link" />
              <Button asChild variant="secondary" size="sm">
                <a href={portal.data.url} target="_blank" rel="noopener noreferrer">
                  <ExternalLink className="h-4 w-4" aria-hidden /> Open
                  <span className="sr-only"> the portal (opens in a new tab)</span>
                </a>
              </Button>
            </div>
          </div>
        </div>
      )}
    </Card>
  );
}
