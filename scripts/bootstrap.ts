// npm run bootstrap -- --org "Acme Ltd" --email owner@acme.test [--name "Ada Obi"] [--password "…"]
// prints {"organizationId","userId","apiKey":"cd_live_…","testApiKey":"cd_test_…"}
// Creates (or finds) the user and their organization and prints one JSON line
// {"organizationId","userId","apiKey"} with a new read+write API key.
// Idempotent on email + organization name: a second run reuses both.
import { parseArgs } from "node:util";
import { createApiKey } from "@/server/api-keys/service";
import { disconnectDatabase } from "@/server/db/client";
import { CreateOrganizationInput } from "@/lib/schemas/organizations";
import { ensureOwner } from "@/server/organizations/operator-owner";

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

  const { userId, organizationId } = await ensureOwner({
    email,
    name: values.name ?? email.split("@")[0]!,
    organizationName: orgName,
    password: values.password,
  });

  const owner = { organizationId, userId, role: "OWNER" as const };
  const day = new Date().toISOString().slice(0, 10);
  const key = await createApiKey(owner, { name: `Bootstrap key ${day}`, permissions: ["read", "write"], mode: "live" });
  const testKey = await createApiKey(owner, { name: `Bootstrap test key ${day}`, permissions: ["read", "write"], mode: "test" });
  process.stdout.write(`${JSON.stringify({ organizationId, userId, apiKey: key.key, testApiKey: testKey.key })}\n`);
}

main()
  .then(() => disconnectDatabase())
  .catch(async (err: Error) => {
    process.stderr.write(`${err.message}\n`);
    await disconnectDatabase().catch(() => {});
    process.exit(1);
  });
