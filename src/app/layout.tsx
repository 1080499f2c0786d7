import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { Toaster } from "sonner";
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

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <TRPCReactProvider>{children}</TRPCReactProvider>
        {/* Bottom right: clear of the page headers' actions at the top right; below 600 px
            sonner spans the width at the bottom. Colours: the toast section of globals.css. */}
        <Toaster richColors position="bottom-right" />
      </body>
    </html>
  );
}
