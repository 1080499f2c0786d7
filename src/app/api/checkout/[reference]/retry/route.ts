// POST /api/checkout/{reference}/retry — a new payment after a declined card.
import { handleCheckoutRetry } from "@/server/rest/checkout";

export const dynamic = "force-dynamic";

export async function POST(_request: Request, { params }: { params: Promise<{ reference: string }> }) {
  return handleCheckoutRetry((await params).reference);
}
