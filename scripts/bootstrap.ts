// npm run bootstrap -- --org "Acme Ltd" --email owner@acme.test [--name "Ada Obi"] [--password "…"]
// prints {"organizationId","userId","apiKey":"cd_live_…","testApiKey":"cd_test_…"}
// Creates (or finds) the user and their organization and prints one JSON line
// {"organizationId","userId","apiKey"} with a new read+write API key.
// Idempotent on email + organization name: a second run reuses both.
import crypto from "node:crypto";
import { parseArgs } from "node:util";
import { hashPassword } from "@/server/password";
import { createApiKey } from "@/server/api-keys/service";
import { db, disconnectDatabase } from "@/server/db/client";
import { CreateOrganizationInput } from "@/lib/schemas/organizations";
import { createOrganization } from "@/server/organizations/service";

async function main() {
  const { values } = parseArgs({
    options: {
      org: { type: "string" },
      email: { type: "string" },
      name: { type: "string" },
      password: { type: "string" },
    },
  });
  const input = CreateOrganizationInput.safeParse({ name: values.org, email: values.email?.toLowerCase() });
  if (!input.success) {
    const problems = input.error.issues.map((i) => `--${i.path[0] === "name" ? "org" : "email"}: ${i.message}`);
    throw new Error(`Usage: npm run bootstrap -- --org "Acme Ltd" --email owner@acme.test\n${problems.join("\n")}`);
  }
  if (values.password !== undefined && values.password.length < 8) throw new Error("--password: at least 8 characters");
  const { name: orgName, email } = input.data;

  let user = await db.user.findUnique({ where: { email } });
  if (!user) {
    user = await db.user.create({
      data: { id: crypto.randomBytes(24).toString("base64url"), email, name: values.name ?? email.split("@")[0]! },
    });
  }
  if (values.password) {
    const password = await hashPassword(values.password);
    const existing = await db.account.findFirst({ where: { userId: user.id, providerId: "credential" } });
    if (existing) await db.account.update({ where: { id: existing.id }, data: { password } });
    else {
      await db.account.create({
        data: {
          id: crypto.randomBytes(24).toString("base64url"),
          userId: user.id,
          accountId: user.id,
          providerId: "credential",
          password,
        },
      });
    }
  }

  const owned = await db.member.findFirst({ where: { userId: user.id, role: "OWNER", organization: { name: orgName } } });
  const organizationId = owned?.organizationId ?? (await createOrganization(user.id, { name: orgName, email })).id;

  const owner = { organizationId, userId: user.id, role: "OWNER" as const };
  const day = new Date().toISOString().slice(0, 10);
  const key = await createApiKey(owner, { name: `Bootstrap key ${day}`, permissions: ["read", "write"], mode: "live" });
  const testKey = await createApiKey(owner, { name: `Bootstrap test key ${day}`, permissions: ["read", "write"], mode: "test" });
  process.stdout.write(`${JSON.stringify({ organizationId, userId: user.id, apiKey: key.key, testApiKey: testKey.key })}\n`);
}

main()
  .then(() => disconnectDatabase())
  .catch(async (err: Error) => {
    process.stderr.write(`${err.message}\n`);
    await disconnectDatabase().catch(() => {});
    process.exit(1);
  });
