// The sign-in history: successes and refusals of known accounts only, and the
// new-device email — not at the first sign-in, not from a known device.
import { describe, expect, it } from "vitest";
import { db } from "@/server/db/client";
import { ownerWithOrganization } from "@/test/fixtures";
import { listSignIns, recordFailedSignIn, recordSignIn } from "./history";

const MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const MAC_NEWER = MAC.replace("Chrome/131", "Chrome/132");
const ANDROID =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";

describe("sign-in history", () => {
  it("keeps successes and refusals of the account, newest first; an unknown email leaves nothing", async () => {
    const { user } = await ownerWithOrganization();
    await recordSignIn(user.id, "203.0.113.5", MAC);
    await recordFailedSignIn({ email: user.email.toUpperCase() }, "wrong_password", "198.51.100.9", ANDROID);
    await recordFailedSignIn({ email: "nobody-here@example.test" }, "wrong_password", "198.51.100.9", ANDROID);
    const { data } = await listSignIns(user.id);
    expect(data.map((s) => [s.success, s.reason, s.ipAddress])).toEqual([
      [false, "wrong_password", "198.51.100.9"],
      [true, null, "203.0.113.5"],
    ]);
    expect(data[1]).toMatchObject({ browser: "Chrome 131", system: "macOS Catalina" });
  });

  it("emails the user a sign-in from a new device only: not the first one, not a known one (a browser update is the same device)", async () => {
    const { user, org } = await ownerWithOrganization();
    const mails = () => db.mailTask.findMany({ where: { organizationId: org.id, kind: "new_sign_in" } });
    await recordSignIn(user.id, "203.0.113.5", MAC);
    await recordSignIn(user.id, "203.0.113.6", MAC_NEWER);
    expect(await mails()).toEqual([]);
    await recordSignIn(user.id, "198.51.100.7", ANDROID);
    const [mail] = await mails();
    expect(mail).toMatchObject({ recipient: user.email.toLowerCase(), data: { browser: "Chrome 131", system: "Android", ipAddress: "198.51.100.7" } });
    expect(await mails()).toHaveLength(1);
  });
});
