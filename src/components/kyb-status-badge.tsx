import { Badge } from "@/components/ui/card";
import type { Kyb, KybDocument } from "@/lib/schemas/kyb";

export const KYB_STATUS_LABEL: Record<Kyb["status"], string> = {
  not_submitted: "Not submitted",
  pending: "Under review",
  approved: "Approved",
  rejected: "Rejected",
};

const TONE = { not_submitted: "slate", pending: "amber", approved: "green", rejected: "red" } as const;

export const KYB_DOCUMENT_LABEL: Record<KybDocument["kind"], string> = {
  certificateOfIncorporation: "Certificate of incorporation",
  taxCertificate: "Tax certificate",
};

export function KybStatusBadge({ status }: { status: Kyb["status"] }) {
  return <Badge tone={TONE[status]}>{KYB_STATUS_LABEL[status]}</Badge>;
}

/** Certificate of incorporation first, then the tax certificate: the order the forms ask for them. */
export const inKindOrder = <T extends Pick<KybDocument, "kind">>(documents: T[]): T[] =>
  [...documents].sort(
    (a, b) => Object.keys(KYB_DOCUMENT_LABEL).indexOf(a.kind) - Object.keys(KYB_DOCUMENT_LABEL).indexOf(b.kind),
  );
