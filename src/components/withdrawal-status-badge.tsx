import { Badge } from "@/components/ui/card";

const STATUS = {
  pending: { label: "Pending", tone: "amber" },
  processing: { label: "Processing", tone: "blue" },
  paid: { label: "Paid", tone: "green" },
  failed: { label: "Failed", tone: "red" },
} as const;

/** A withdrawal's (payout's) status; a failure shows its reason under the badge. */
export function WithdrawalStatusBadge({ status, failureReason }: { status: string; failureReason?: string | null }) {
  const known = STATUS[status as keyof typeof STATUS];
  return (
    <span className="flex flex-col items-start gap-1" data-testid="withdrawal-status">
      <Badge tone={known?.tone ?? "slate"}>{known?.label ?? status}</Badge>
      {status === "failed" && failureReason && <span className="max-w-64 text-xs text-red-700">{failureReason}</span>}
    </span>
  );
}
