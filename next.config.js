/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // A second build beside a running dev server (e.g. NEXT_DIST_DIR=.next-e2e) must not share its folder.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  // Turbopack keeps a build cache on disk for the next build; a build that has no next (a fresh CI
  // clone: NEXT_BUILD_CACHE=0 in .ci/run) skips writing it (~12 s).
  experimental: { turbopackFileSystemCacheForBuild: process.env.NEXT_BUILD_CACHE !== "0" },
  // `npm run typecheck` checks the whole project (app, scripts, tests) as its own step.
  typescript: { ignoreBuildErrors: true },
  // Native/wasm and process-level packages stay out of the bundle.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "@prisma/adapter-pg",
    "@prisma/client",
    "@prisma/driver-adapter-utils",
    "@prisma/schema-engine-wasm",
    "pg",
    "pino",
    "proper-lockfile",
    "ioredis",
    "nodemailer",
    // The SMS SDKs (src/server/integrations/sms.ts). It sets the URL exports of africastalking/lib/common.js
    // that the SDK's SMS client reads at each request: both must get the one module Node loads.
    "twilio",
    "africastalking",
    "undici",
    "uploadthing",
    "busboy",
    // Loaded from node_modules, where Node does not flag its archiver's `new Buffer()` (DEP0005) as the app's own code.
    "exceljs",
  ],
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
        ],
      },
      {
        // Nothing may frame the app… (pages also say `frame-ancestors 'none'` in the
        // Content-Security-Policy that src/proxy.ts sets with a nonce per request)
        source: "/((?!api/files/).*)",
        headers: [{ key: "X-Frame-Options", value: "DENY" }],
      },
      {
        // …except its own pages showing a stored file (documents previews, KYB review).
        source: "/api/files/:id",
        headers: [
          { key: "X-Frame-Options", value: "SAMEORIGIN" },
          { key: "Content-Security-Policy", value: "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'" },
        ],
      },
    ];
  },
};

module.exports = nextConfig;
