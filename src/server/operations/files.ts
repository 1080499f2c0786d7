// GET /api/files/{id} — a stored file, to whoever may open it: an API key of
// the owning organization (Bearer, rate limited like the REST API), or a
// signed-in member of it (session cookie), or a platform admin for KYB
// documents. Anyone else gets the same 404 as an unknown id. Served with the
// type judged at upload, nosniff, and never cached by shared caches.
import { z } from "@/lib/messages";
import { isPlatformAdmin } from "@/server/admin/service";
import { AppError } from "@/server/errors";
import { storedFileResponse } from "@/server/files/serve";
import { openFile, type FileAccess } from "@/server/files/service";
import { operation } from "./operation";

export const fileOperations = [
  operation({
    name: "files.get",
    auth: ["apiKey", "user"],
    permission: "read",
    kind: "query",
    http: {
      method: "GET",
      path: "/api/files/{id}",
      // Any id: one this route does not serve is the same 404 as an unknown one.
      params: z.object({ id: z.string() }),
      headers: { "Cache-Control": "private, no-store" },
    },
    handler: async (ctx) => {
      if (!/^[\w-]{1,100}$/.test(ctx.input.id)) throw new AppError("not_found", "File not found");
      // The admin flag is read from the database, not the session: a revoked admin loses access at once.
      const access: FileAccess =
        ctx.auth === "apiKey"
          ? { organizationId: ctx.key.organizationId, accountId: ctx.key.accountId }
          : { userId: ctx.user.id, platformAdmin: await isPlatformAdmin(ctx.user.id) };
      const { file, body } = await openFile(access, ctx.input.id);
      return storedFileResponse(ctx.request!, file, body, ctx.headers!);
    },
  }),
] as const;
