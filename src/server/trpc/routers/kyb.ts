// KYB for the dashboard. Submit and resubmit go through POST /api/upload/…
// (multipart with progress); this reads the status and the documents.
import { Kyb } from "@/lib/schemas/kyb";
import { getKyb } from "@/server/kyb/service";
import { orgProcedure, router } from "../init";

export const kybRouter = router({
  status: orgProcedure.output(Kyb).query(({ ctx }) => getKyb(ctx.actor)),
});
