import { Badge } from "@/components/ui/card";

const STATUS = {
  pending_verification: { label: "Pending verification", tone: "amber" },
  verified: { label: "Verified", tone: "green" },
  verification_failed: { label: "Verification failed", tone: "red" },
} as const;

export function BankAccountStatusBadge({ status }: { status: string }) {
  const known = STATUS[status as keyof typeof STATUS];
  return <Badge tone={known?.tone ?? "slate"}>{known?.label ?? status}</Badge>;
}
