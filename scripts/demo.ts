// npm run demo: a sample business to explore, in TEST mode, made through the services.
// Creates (or finds) demo@coverdesk.test and its organization "Sample Insurance Ltd",
// loads the sample data into the organization's test twin — six months of history, dated as it
// happened (src/server/demo/clock.ts) — and prints how to sign in.
// Idempotent: a second run finds both and adds nothing (it resets the password it prints).
// A run stopped part-way (an error, Ctrl-C, a crash) is resumed by the next one: at once
// after an error, once the stopped load's lease has run out (5 minutes) after a kill.
// Run with the app stopped on the embedded database (DATA_DIR), or against DATABASE_URL.
import { performance } from "node:perf_hooks";
import { db, disconnectDatabase } from "@/server/db/client";
import { ensureOwner } from "@/server/organizations/operator-owner";
import { ensureTestTwin } from "@/server/organizations/twin";
import { processClock } from "@/server/demo/clock";
import { HISTORY_DAYS, loadSampleData, SAMPLE_DATA_LEASE_MS } from "@/server/demo/service";

const EMAIL = "demo@coverdesk.test";
const ORG = "Sample Insurance Ltd";
const PASSWORD = "coverdesk-demo";

async function main() {
  const started = performance.now();
  const { userId, organizationId: accountId } = await ensureOwner({
    email: EMAIL,
    name: "Demo Owner",
    organizationName: ORG,
    password: PASSWORD,
    emailVerified: true,
  });
  const twinId = await ensureTestTwin(accountId);
  let last = started;
  const step = (label: string) => {
    const now = performance.now();
    process.stderr.write(`  ${label.padEnd(12)} ${((now - last) / 1000).toFixed(1)} s\n`);
    last = now;
  };
  step("account");
  const result = await loadSampleData(
    { organizationId: twinId, accountId, livemode: false, userId, role: "OWNER" },
    "full",
    step,
    // Six months of history: this process runs nothing else, so its clock can be moved for each service call.
    { clock: processClock() },
  );
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  // Not loaded and not complete: a load holds the lease (another run, or one stopped without releasing it).
  const state = await db.organization.findUniqueOrThrow({
    where: { id: twinId },
    select: { sampleDataLoadedAt: true, sampleDataCompletedAt: true },
  });
  const heldUntil =
    !result.created && !state.sampleDataCompletedAt && state.sampleDataLoadedAt
      ? new Date(state.sampleDataLoadedAt.getTime() + SAMPLE_DATA_LEASE_MS)
      : null;
  process.stdout.write(
    [
      result.created
        ? `Sample data loaded in ${seconds} s: ${result.policies} policies, ${result.payments} payments over ${HISTORY_DAYS} days, ${result.claims} claims (test mode).`
        : heldUntil
          ? `Another load started at ${state.sampleDataLoadedAt!.toISOString()} and has not completed (still running, or stopped): nothing added. If it was stopped, run this again after ${heldUntil.toISOString()} to complete it.`
          : `Sample data already there (${result.policies} policies, ${result.payments} payments, ${result.claims} claims): nothing added.`,
      "",
      "Start the app (npm run dev), sign in, and turn on Test mode in the sidebar:",
      `  email:    ${EMAIL}`,
      `  password: ${PASSWORD}`,
      "",
    ].join("\n"),
  );
}

main()
  .then(() => disconnectDatabase())
  .catch(async (err: Error) => {
    process.stderr.write(`${err.stack ?? err.message}\n`);
    await disconnectDatabase().catch(() => {});
    process.exit(1);
  });
