#!/usr/bin/env node
// `npm test`: every check of the project, phase by phase, each phase's time
// printed as it ends and all of them in a table at the end (also when a phase
// fails: the run stops there). Phases that do not compete for the same thing
// run side by side: type-checking and lint read the sources while nothing
// else runs.
//
// With DATABASE_URL set (CI), the service tests and every API and browser spec
// run on that PostgreSQL, then a smaller set of specs on the embedded database
// proves the quick start's path (`test:e2e:embedded`) beside the benchmark's
// smoke run; without it, everything runs on the embedded database.
import { spawn } from "node:child_process";

const postgres = !!process.env.DATABASE_URL;
// The specs run on the build this run makes (playwright.config.ts skips its own build).
process.env.E2E_BUILT = "1";
// No full-page screenshots of every checked page (E2E_SCREENSHOTS=1 npm test takes them, as `npm run test:e2e` does).
process.env.E2E_SCREENSHOTS ??= "0";
// No Playwright traces (a screencast and DOM snapshots of every action, which nothing here reads); a failure
// still prints its error and keeps its screenshot. E2E_TRACE=retain-on-failure npm test keeps them.
process.env.E2E_TRACE ??= "off";
const phases = [
  { name: "typecheck + lint", commands: ["npm run -s typecheck", "npm run -s lint", "npm run -s client:check"] },
  { name: "unit (vitest)", commands: ["npm run -s test:unit"] },
  { name: "build", commands: ["npm run -s build"] },
  ...(postgres
    ? [
        { name: "e2e on PostgreSQL", commands: ["npm run -s test:e2e:pg"] },
        // Side by side: the benchmark's own server and database, and the quick start's embedded one, do
        // not meet (the smoke run reports its figures but no target fails it, so sharing the CPU is fine).
        { name: "e2e embedded ‖ bench", commands: ["npm run -s test:e2e:embedded", "npm run -s bench:ci"] },
      ]
    : [{ name: "e2e (embedded db)", commands: ["npm run -s test:e2e"] }]),
];
if (!postgres) console.log("DATABASE_URL is unset: every spec runs on the embedded database; the benchmark smoke run (PostgreSQL only) is skipped.");

const run = (command) =>
  new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: "inherit" });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;
const results = [];
const started = Date.now();
let failed = null;
for (const phase of phases) {
  const t0 = Date.now();
  console.log(`\n▶ ${phase.name}: ${phase.commands.join("  ‖  ")}`);
  const codes = await Promise.all(phase.commands.map(run));
  const ms = Date.now() - t0;
  const ok = codes.every((c) => c === 0);
  results.push({ name: phase.name, ms, ok });
  console.log(`${ok ? "✔" : "✘"} ${phase.name}: ${seconds(ms)}`);
  if (!ok) {
    failed = phase.name;
    break;
  }
}
console.log("\nphase                    time");
for (const r of results) console.log(`${r.ok ? "✔" : "✘"} ${r.name.padEnd(22)} ${seconds(r.ms).padStart(6)}`);
console.log(`  ${"total".padEnd(22)} ${seconds(Date.now() - started).padStart(6)}`);
if (failed) {
  console.log(`\nnpm test failed in: ${failed}`);
  process.exit(1);
}
