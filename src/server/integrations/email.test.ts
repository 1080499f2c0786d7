// Without SMTP, mail lands in DATA_DIR/mail as .eml files. Its link (an
// invitation token) is logged in development only. The real logger runs in a
// child process with the NODE_ENV under test; its stdout is what ships to logs.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const TOKEN = "inv_Zx8v3Q9kLmN2pR7tW4yB6cD1fG5hJ0aS";
const LINK = `https://app.example.test/invite/${TOKEN}`;

async function sendWith(nodeEnv: "production" | "development") {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "coverdesk-mail-"));
  const script = path.join(dataDir, "send.mts");
  fs.writeFileSync(
    script,
    `const { sendEmail } = await import(${JSON.stringify(path.resolve(__dirname, "email.ts"))});
await sendEmail({ to: "new@example.test", subject: "Your sign-in code 918273", text: "Accept: ${LINK}", html: "<a href='${LINK}'>Accept</a>", link: "${LINK}" });`,
  );
  try {
    const { stdout, stderr } = await run(path.resolve("node_modules/.bin/tsx"), [script], {
      env: { ...process.env, NODE_ENV: nodeEnv, DATA_DIR: dataDir, LOG_LEVEL: "info", SMTP_URL: "", DATABASE_URL: "" },
    });
    const mailDir = path.join(dataDir, "mail");
    const eml = fs.readdirSync(mailDir).map((f) => fs.readFileSync(path.join(mailDir, f), "utf8"));
    return { log: stdout + stderr, eml };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

describe("local outbox logging", () => {
  it("production: the log names the file but never carries the token; the .eml keeps the link", async () => {
    const { log, eml } = await sendWith("production");
    expect(log).toContain("email written to the local outbox");
    expect(log).toContain(".eml");
    expect(log).not.toContain(TOKEN);
    // A subject may carry a secret (the portal's sign-in code): never logged.
    expect(log).not.toContain("918273");
    expect(eml).toHaveLength(1);
    expect(eml[0]).toContain(TOKEN);
  });

  it("development: the link is logged so invitations work on a laptop", async () => {
    const { log } = await sendWith("development");
    expect(log).toContain(LINK);
  });
});
