// npm run ledger:check [-- --org <organizationId>]
// Recomputes every organization's balance from its ledger entries and prints
// one line per broken invariant (exit 1), or "ledger ok: N organizations".
import { parseArgs } from "node:util";
import { disconnectDatabase } from "@/server/db/client";
import { ledgerCheckReport } from "@/server/ledger/check";

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { org: { type: "string" } } });
  const { lines, exitCode } = await ledgerCheckReport(values.org);
  for (const line of lines) process.stdout.write(`${line}\n`);
  return exitCode;
}

main()
  .then(async (code) => {
    await disconnectDatabase();
    process.exit(code);
  })
  .catch(async (err: Error) => {
    process.stderr.write(`${err.message}\n`);
    await disconnectDatabase().catch(() => {});
    process.exit(1);
  });
