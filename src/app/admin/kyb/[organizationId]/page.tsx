import type { Metadata } from "next";
import { KybReviewView } from "./_components/kyb-review-view";

export const metadata: Metadata = { title: "KYB review" };

export default async function KybReviewPage({ params }: { params: Promise<{ organizationId: string }> }) {
  const { organizationId } = await params;
  return <KybReviewView organizationId={organizationId} />;
}
