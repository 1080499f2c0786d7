import { z } from "@/lib/messages";

/** `{id}` of a record in a path or a tRPC input. */
export const IdParam = z.object({ id: z.string().min(1).max(100) });
