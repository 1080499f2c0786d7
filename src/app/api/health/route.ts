// GET /api/health — for load balancers: 200 when the database answers, else 503.
import { db } from "@/server/db/client";
import { isDraining } from "@/server/lifecycle";

export const dynamic = "force-dynamic";

export async function GET() {
  if (isDraining()) return Response.json({ status: "stopping", database: "ok" }, { status: 503 });
  try {
    await db.$queryRaw`SELECT 1`;
    return Response.json({ status: "ok", database: "ok" });
  } catch {
    return Response.json({ status: "error", database: "unavailable" }, { status: 503 });
  }
}
