// Cheaper stack traces in the test workers. Playwright captures a 50-frame
// stack on every API call and locator action (to report where a step came
// from), and the source-map support it installs for TypeScript specs copies
// every frame of it, Playwright's own included. Measured on the API specs,
// that copying was about half of a worker's CPU. Frames of the specs and
// their helpers are still mapped back to their TypeScript lines (failures
// point at the right line); frames of node_modules and Node itself, which
// have no source map Playwright made, are printed as V8 gives them.
import { createRequire } from "node:module";

type CallSite = NodeJS.CallSite;
interface SourceMapSupport {
  wrapCallSite(frame: CallSite, state: { nextPosition: unknown; curPosition: unknown }): CallSite;
}

// Resolved from the project root, where Playwright runs (the specs are compiled to CommonJS or ESM alike).
const load = createRequire(`${process.cwd()}/package.json`);
const installed = Symbol.for("coverdesk.e2e.stack-traces");
const g = globalThis as { [installed]?: boolean };

function install() {
  if (g[installed]) return;
  let support: SourceMapSupport;
  try {
    support = (load("playwright-core/lib/utilsBundle") as { sourceMapSupport: SourceMapSupport }).sourceMapSupport;
  } catch {
    return; // another Playwright layout: keep its own formatting
  }
  if (typeof support?.wrapCallSite !== "function") return;
  g[installed] = true;
  const needsMap = (frame: CallSite) => {
    const file = frame.getFileName();
    return !!file && !file.startsWith("node:") && !file.includes("/node_modules/");
  };
  Error.prepareStackTrace = (error: Error, frames: CallSite[]) => {
    const state = { nextPosition: null as unknown, curPosition: null as unknown };
    const lines: string[] = [];
    for (let i = frames.length - 1; i >= 0; i--) {
      const frame = frames[i]!;
      if (needsMap(frame)) {
        lines.push(`\n    at ${support.wrapCallSite(frame, state)}`);
        state.nextPosition = state.curPosition;
      } else {
        lines.push(`\n    at ${frame}`);
        state.nextPosition = state.curPosition = null;
      }
    }
    return `${error.name || "Error"}: ${error.message || ""}${lines.reverse().join("")}`;
  };
}

install();
