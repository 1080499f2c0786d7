"use client";

// The root layout itself failed: this replaces it, so it brings its own
// <html> and <body> and inline styles (globals.css may not be loaded).
const brand = "#1f5ad6";

export default function GlobalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body
        style={{
          margin: 0,
          minHeight: "100vh",
          display: "flex",
          alignItems: "center",
          justifyContent: "center",
          padding: "40px 16px",
          boxSizing: "border-box",
          background: "#f8fafc",
          color: "#0f172a",
          fontFamily: 'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
        }}
      >
        <main
          style={{
            width: "100%",
            maxWidth: 448,
            boxSizing: "border-box",
            background: "#fff",
            border: "1px solid #e2e8f0",
            borderRadius: 8,
            padding: 24,
          }}
        >
          <p style={{ margin: 0, fontWeight: 600, fontSize: 18, color: brand }}>Coverdesk</p>
          <div role="alert">
            <h1 style={{ margin: "16px 0 0", fontSize: 20, fontWeight: 600 }}>Something went wrong</h1>
            <p style={{ margin: "8px 0 0", fontSize: 14, color: "#475569", lineHeight: 1.5 }}>
              This page could not be shown. Try again; if it keeps happening, tell us what you were doing.
            </p>
          </div>
          {error.digest && (
            <p style={{ margin: "12px 0 0", fontSize: 14, color: "#475569" }}>
              Reference: <code style={{ fontFamily: "ui-monospace, monospace", color: "#1e293b" }}>{error.digest}</code>
            </p>
          )}
          <div style={{ marginTop: 24, display: "flex", flexWrap: "wrap", gap: 12 }}>
            <button
              type="button"
              onClick={() => reset()}
              style={{
                height: 40,
                padding: "0 16px",
                border: 0,
                borderRadius: 6,
                background: brand,
                color: "#fff",
                fontSize: 14,
                fontWeight: 500,
                cursor: "pointer",
              }}
            >
              Try again
            </button>
            {/* A plain link: a full reload, since the app around it is broken. */}
            {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
            <a
              href="/"
              style={{
                display: "inline-flex",
                alignItems: "center",
                height: 40,
                padding: "0 16px",
                border: "1px solid #cbd5e1",
                borderRadius: 6,
                color: "#1e293b",
                fontSize: 14,
                fontWeight: 500,
                textDecoration: "none",
                boxSizing: "border-box",
              }}
            >
              Go to the dashboard
            </a>
          </div>
        </main>
      </body>
    </html>
  );
}
