// POST /api/checkout/{reference} — the hosted checkout's card form pays a sandbox payment.
import { handleCheckout } from "@/server/rest/checkout";

export const dynamic = "force-dynamic";

export async function POST(request: Request, { params }: { params: Promise<{ reference: string }> }) {
  return handleCheckout(request, (await params).reference);
}
