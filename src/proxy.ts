// Content-Security-Policy for every HTML page, with a fresh nonce per request.
//
// Next reads the nonce from the request's `Content-Security-Policy` header
// while it renders and puts it on its own <script> tags (framework, page
// chunks, the inline RSC payload); 'strict-dynamic' then trusts the chunks
// those scripts load. A page rendered at build time could carry no nonce, so
// the root layout makes every page render per request (`connection()`).
//
// Not here: /api (JSON; /api/v1 is answered by the HTTP server before Next
// in production, and /api/files/:id has its own policy in next.config.js),
// /_next (static chunks, images, dev tooling) and the files in public/.
import { type NextRequest, NextResponse } from "next/server";

const DEV = process.env.NODE_ENV === "development";

/**
 * The policy for one page load.
 * - script-src: only scripts carrying this request's nonce, and what they load
 *   ('strict-dynamic'; 'self' is the fallback for browsers without it). No
 *   inline handlers, no eval — except under `next dev`, where React rebuilds
 *   server stacks in the browser with eval.
 * - style-src 'unsafe-inline': server-rendered `style` attributes (React
 *   `style={…}` on the pages, recharts' SVG) cannot carry a nonce, and
 *   libraries insert <style> elements without one (sonner's toasts, Radix's
 *   scroll lock). A nonce in the directive would switch
 *   'unsafe-inline' off, so there is none. CSS runs no script, and with
 *   img-src/font-src/connect-src limited to this origin an injected style
 *   cannot send anything off-site.
 * - img-src data: blob: — data URLs drawn in the page (a payment link's QR code) and
 *   previews of a file picked for upload before it is sent.
 * - frame-ancestors 'none' — as X-Frame-Options DENY (next.config.js) says.
 */
export function contentSecurityPolicy(nonce: string, dev = DEV, paymentForm = false): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    // A payment link's form (/buy/…) is answered with a redirect to the checkout, which may be Paystack's.
    `form-action 'self'${paymentForm ? " https://checkout.paystack.com" : ""}`,
    "frame-ancestors 'none'",
  ].join("; ");
}

export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const policy = contentSecurityPolicy(nonce, DEV, request.nextUrl.pathname.startsWith("/buy/"));

  const headers = new Headers(request.headers);
  // A client's own CSP or nonce header is never believed: both are ours.
  headers.set("Content-Security-Policy", policy);
  headers.delete("Content-Security-Policy-Report-Only");
  headers.set("x-nonce", nonce);

  const response = NextResponse.next({ request: { headers } });
  response.headers.set("Content-Security-Policy", policy);
  return response;
}

export const config = {
  matcher: [
    "/((?!api(?:/|$)|_next/|favicon\\.ico$|icon\\.svg$|icon-192\\.png$|icon-512\\.png$|apple-touch-icon\\.png$|site\\.webmanifest$).*)",
  ],
};
