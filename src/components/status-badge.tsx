import { Badge } from "@/components/ui/card";

const TONES: Record<string, "slate" | "green" | "red" | "amber" | "blue"> = {
  pending: "amber",
  success: "green",
  failed: "red",
  active: "green",
  past_due: "amber",
  expired: "slate",
  submitted: "blue",
  under_review: "amber",
  approved: "green",
  rejected: "red",
  paid: "green",
  processing: "blue",
  processed: "green",
  cancelled: "red",
};

export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={TONES[status] ?? "slate"}>{status.replace("_", " ")}</Badge>;
}
