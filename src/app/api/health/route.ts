// GET /api/health — for load balancers: 200 when the database answers, else
// 503 (also while the server starts or drains).
import { db } from "@/server/db/client";
import { isDraining, isStarting } from "@/server/lifecycle";

export const dynamic = "force-dynamic";

export async function GET() {
  if (isDraining()) return Response.json({ status: "stopping", database: "ok" }, { status: 503 });
  if (isStarting()) return Response.json({ status: "starting", database: "unavailable" }, { status: 503 });
  try {
    await db.$queryRaw`SELECT 1`;
    return Response.json({ status: "ok", database: "ok" });
  } catch {
    return Response.json({ status: "error", database: "unavailable" }, { status: 503 });
  }
}
