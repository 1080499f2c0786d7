// Which Chromium the browser specs run. Debian's headless shell (package
// chromium-headless-shell: the old headless mode, which Playwright itself
// prefers for headless runs) when it is installed — the same engine without
// the full browser's UI and compositor work, a quarter less CPU on the
// browser specs — else the full browser. CHROMIUM_PATH overrides both.
//
// The headless shell has no PDF viewer: a PDF in a frame is a download there.
// A spec that checks a PDF shown inline uses `test.use(WITH_PDF_VIEWER)`.
import fs from "node:fs";

const FULL = "/usr/bin/chromium";
const SHELL = "/usr/bin/chromium-headless-shell";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export const CHROMIUM = process.env.CHROMIUM_PATH ?? (fs.existsSync(SHELL) ? SHELL : FULL);

/** The full browser (with its PDF viewer), for the specs that look at a PDF in a frame. */
export const WITH_PDF_VIEWER = {
  launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? FULL, args: CHROMIUM_ARGS },
};
