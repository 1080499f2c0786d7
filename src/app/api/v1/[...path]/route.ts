// Mounts the framework-free REST adapter (src/server/rest) on /api/v1.
import { handleRestRequest } from "@/server/rest/handler";

export const dynamic = "force-dynamic";

export const GET = handleRestRequest;
export const POST = handleRestRequest;
export const PUT = handleRestRequest;
export const PATCH = handleRestRequest;
export const DELETE = handleRestRequest;
export const OPTIONS = handleRestRequest;
export const HEAD = handleRestRequest;
