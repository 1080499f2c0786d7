#!/usr/bin/env node
// First-load JS per app route, from a production build's manifests (Turbopack or webpack).
//
//   node scripts/bundle-size.mjs [distDir=.next] [--json] [--chunks /route]
//
// A route's first-load JS is the sum of the gzip sizes (level 9, kB = 1 000 bytes) of the
// unique JS files its first HTML makes the browser load:
//   - build-manifest.json `rootMainFiles` (the runtime every App Router page loads);
//   - every `entryJSFiles` list of the page's `server/app/<page>_client-reference-manifest.js`
//     (the root and group layouts, the page, and the error / not-found / global-error
//     boundaries the HTML references as well).
// Polyfills (`polyfillFiles`, loaded with `nomodule`, i.e. by legacy browsers only) are left
// out, as are chunks loaded later by next/dynamic or React.lazy. Checked against what
// Chromium downloads on a signed-in dashboard page (page.on("response")): same file set.
//
// `export async function firstLoadJs(distDir)` gives the same numbers to other scripts.
import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import zlib from "node:zlib";
import { fileURLToPath } from "node:url";

export const LIMIT_KB = 200;
/** Routes the limit does not apply to: none since /docs is rendered on the server. */
export const EXCEPTED = new Set([]);

const gzipCache = new Map();
function gzipSize(file) {
  let n = gzipCache.get(file);
  if (n === undefined) {
    n = zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
    gzipCache.set(file, n);
  }
  return n;
}

const readJson = (dist, f) => JSON.parse(fs.readFileSync(path.join(dist, f), "utf8"));

/** "/(dashboard)/policies/[id]/page" → "/policies/[id]" (route groups dropped). */
function routeOf(page) {
  const r = page
    .replace(/\/page$/, "")
    .split("/")
    .filter((s) => s && !(s.startsWith("(") && s.endsWith(")")))
    .join("/");
  return `/${r}`;
}

/**
 * @param {string} [distDir] the build's folder (relative to the working directory or absolute)
 * @returns {Promise<{route: string, page: string, gzipKB: number, gzipBytes: number, files: {file: string, gzipBytes: number}[], over: boolean, excepted: boolean}[]>}
 */
export async function firstLoadJs(distDir = ".next") {
  const dist = path.resolve(distDir);
  if (!fs.existsSync(path.join(dist, "build-manifest.json"))) throw new Error(`${dist} holds no build (no build-manifest.json)`);
  const buildManifest = readJson(dist, "build-manifest.json");
  const rootMain = (buildManifest.rootMainFiles ?? []).filter((f) => f.endsWith(".js"));

  // The app's pages: app-path-routes-manifest.json (Next ≥ 13), else every page manifest on disk.
  let pages;
  if (fs.existsSync(path.join(dist, "app-path-routes-manifest.json"))) {
    pages = Object.keys(readJson(dist, "app-path-routes-manifest.json")).filter((p) => p.endsWith("/page"));
  } else {
    pages = fs
      .readdirSync(path.join(dist, "server/app"), { recursive: true })
      .filter((f) => f.endsWith("page_client-reference-manifest.js"))
      .map((f) => `/${f.replace(/_client-reference-manifest\.js$/, "")}`);
  }
  // webpack builds list the page's own chunks here; Turbopack leaves it out.
  const appBuild = fs.existsSync(path.join(dist, "app-build-manifest.json")) ? readJson(dist, "app-build-manifest.json").pages ?? {} : {};

  const out = [];
  for (const page of pages) {
    const file = path.join(dist, "server/app", `${page}_client-reference-manifest.js`);
    const files = new Set(rootMain);
    if (fs.existsSync(file)) {
      const sandbox = vm.createContext({});
      vm.runInContext(fs.readFileSync(file, "utf8"), sandbox);
      const manifest = sandbox.__RSC_MANIFEST?.[page];
      if (!manifest?.entryJSFiles) throw new Error(`${path.relative(process.cwd(), file)} has no entryJSFiles for ${page}`);
      for (const list of Object.values(manifest.entryJSFiles)) {
        for (const f of list) {
          const p = typeof f === "string" ? f : f.path;
          if (p.endsWith(".js")) files.add(p.replace(/^\/?_next\//, ""));
        }
      }
    }
    for (const f of appBuild[page] ?? []) if (f.endsWith(".js")) files.add(f);
    const sized = [...files].map((f) => ({ file: f, gzipBytes: gzipSize(path.join(dist, f)) })).sort((a, b) => b.gzipBytes - a.gzipBytes);
    const gzipBytes = sized.reduce((n, f) => n + f.gzipBytes, 0);
    const route = routeOf(page);
    const gzipKB = Math.round(gzipBytes / 100) / 10;
    const excepted = EXCEPTED.has(route);
    out.push({ route, page, gzipKB, gzipBytes, files: sized, over: gzipKB > LIMIT_KB, excepted });
  }
  return out.sort((a, b) => a.route.localeCompare(b.route));
}

async function main() {
  const args = process.argv.slice(2);
  const json = args.includes("--json");
  const chunksAt = args.indexOf("--chunks");
  const chunksOf = chunksAt >= 0 ? args[chunksAt + 1] : undefined;
  const distDir = args.find((a, i) => !a.startsWith("--") && (chunksAt < 0 || i !== chunksAt + 1)) ?? ".next";
  const routes = await firstLoadJs(distDir);
  if (json) {
    process.stdout.write(`${JSON.stringify(routes, null, 2)}\n`);
    return;
  }
  if (chunksOf) {
    const r = routes.find((x) => x.route === chunksOf);
    if (!r) throw new Error(`no route ${chunksOf}`);
    for (const f of r.files) console.log(`${(f.gzipBytes / 1000).toFixed(1).padStart(8)} kB  ${f.file}`);
    console.log(`${r.gzipKB.toFixed(1).padStart(8)} kB  total (${r.files.length} files)`);
    return;
  }
  const width = Math.max(...routes.map((r) => r.route.length));
  console.log(`${"Route".padEnd(width)}  First-load JS (gzip)  Files`);
  for (const r of routes) {
    const mark = r.over ? (r.excepted ? "  over (excepted)" : `  OVER ${LIMIT_KB} kB`) : "";
    console.log(`${r.route.padEnd(width)}  ${`${r.gzipKB.toFixed(1)} kB`.padStart(20)}  ${String(r.files.length).padStart(5)}${mark}`);
  }
  const over = routes.filter((r) => r.over && !r.excepted);
  console.log(over.length ? `\n${over.length} route(s) over ${LIMIT_KB} kB` : `\nEvery route is within ${LIMIT_KB} kB${routes.some((r) => r.excepted) ? " (except the excepted ones)" : ""}`);
  process.exitCode = over.length ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 2;
  });
}
