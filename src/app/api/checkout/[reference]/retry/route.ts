// POST /api/checkout/{reference}/retry — a new payment, with the same provider, after a failed one.
import { handleCheckoutRetry } from "@/server/rest/checkout";

export const dynamic = "force-dynamic";

export async function POST(request: Request, { params }: { params: Promise<{ reference: string }> }) {
  return handleCheckoutRetry(request, (await params).reference);
}
