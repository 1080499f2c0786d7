"use client";

// A payment's checkout link, to send to its customer: shown, opened, copied.
// Used wherever the dashboard creates a payment for one customer.
import { ExternalLink } from "lucide-react";
import { CopyButton } from "@/components/copy-button";
import { Button } from "@/components/ui/button";

export function CheckoutLink({ email, url, testId }: { email: string; url: string; testId: string }) {
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">Send this link to {email}. It opens the checkout for this payment.</p>
      <code data-testid={testId} className="block break-all rounded-md bg-slate-100 px-3 py-2 font-mono text-xs">
        {url}
      </code>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" asChild>
          <a href={url} target="_blank" rel="noreferrer">
            Open checkout <ExternalLink className="h-4 w-4" aria-hidden />
          </a>
        </Button>
        <CopyButton value={url} label="Copy link" />
      </div>
    </div>
  );
}
