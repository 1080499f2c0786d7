// Runs in the browser before any of the app's modules (Next loads it first).
//
// zod 4 compiles object parsers with `new Function` unless told not to, and
// probes for it when the first `z.object()` is built; under the pages'
// Content-Security-Policy (src/proxy.ts: no 'unsafe-eval') the probe is caught
// but still reported as a violation. `jitless` skips the probe and the
// compiler. zod keeps its global config on `globalThis.__zod_globalConfig`
// (shared by every copy of zod), so it is set here without loading zod into
// every page's first JS.
const g = globalThis as typeof globalThis & { __zod_globalConfig?: { jitless?: boolean } };
(g.__zod_globalConfig ??= {}).jitless = true;
