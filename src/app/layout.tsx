import type { Metadata, Viewport } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { Toaster } from "@/components/toaster";
import { TRPCReactProvider } from "@/trpc/react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Coverdesk", template: "%s · Coverdesk" },
  description: "Sell business insurance online: policies, checkout, claims and payouts.",
  // Generated from public/icon.svg by scripts/generate-icons.mjs.
  icons: {
    icon: [
      { url: "/favicon.ico", sizes: "16x16 32x32 48x48" },
      { url: "/icon.svg", type: "image/svg+xml" },
    ],
    apple: { url: "/apple-touch-icon.png", sizes: "180x180" },
  },
  manifest: "/site.webmanifest",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request, so Next can put the request's CSP nonce
  // (src/proxy.ts) on its scripts: HTML made at build time would carry none
  // and its scripts would be refused.
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <TRPCReactProvider>{children}</TRPCReactProvider>
        {/* sonner, loaded after the page; colours: the toast section of globals.css. */}
        <Toaster />
      </body>
    </html>
  );
}
