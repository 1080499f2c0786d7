"use client";

import { ApiReferenceReact } from "@scalar/api-reference-react";
import "@scalar/api-reference-react/style.css";
import { useEffect, useRef } from "react";

// Scalar's default theme (`@layer scalar-theme`) has greys and method colours
// below WCAG AA (e.g. #8e8e8e on white, 3.3:1; PUT orange #ff5800, 3.2:1). This
// unlayered block wins over the layer and maps Scalar onto Coverdesk's slate +
// brand palette, every text colour at least 4.5:1 on the backgrounds it sits on.
const THEME_CSS = `
.light-mode {
  --scalar-font: ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  --scalar-font-code: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
  --scalar-background-1: #ffffff;
  --scalar-background-2: #f8fafc;
  --scalar-background-3: #e2e8f0;
  --scalar-background-accent: #eef6ff;
  --scalar-border-color: #e2e8f0;
  --scalar-color-1: #0f172a;
  --scalar-color-2: #475569;
  --scalar-color-3: #566173;
  --scalar-color-accent: #1f5ad6;
  --scalar-color-green: #047857;
  --scalar-color-red: #b91c1c;
  --scalar-color-yellow: #854d0e;
  --scalar-color-blue: #1d4ed8;
  --scalar-color-orange: #c2410c;
  --scalar-color-purple: #6d28d9;
  --scalar-color-query: #0f766e;
  --scalar-color-alert: #9a3412;
  --scalar-color-danger: #b91c1c;
  --scalar-link-color: #1f5ad6;
  --scalar-link-color-hover: #1a48ab;
  --scalar-button-1: #1f5ad6;
  --scalar-button-1-hover: #1a48ab;
  --scalar-button-1-color: #ffffff;
  --scalar-sidebar-background-1: #ffffff;
  --scalar-sidebar-color-1: #0f172a;
  --scalar-sidebar-color-2: #475569;
  --scalar-sidebar-color-active: #1a48ab;
  --scalar-sidebar-item-active-background: #eef6ff;
  --scalar-sidebar-search-color: #566173;
}
/* Long endpoint paths wrap on phones instead of scrolling sideways in a box no keyboard can reach. */
.scalar-app .endpoints .endpoint { white-space: normal; overflow-wrap: anywhere; }
`;

type Configuration = Parameters<typeof ApiReferenceReact>[0]["configuration"];

// A stable object: the wrapper calls updateConfiguration whenever the prop changes identity.
const CONFIGURATION: Configuration = {
  url: "/api/v1/openapi.json",
  // Offline: no web fonts, no telemetry, no hosted extras (0 external requests).
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  // Scalar shows its own "Developer Tools / Configure / Share / Deploy" bar on
  // localhost-like hosts by default; this page has the Coverdesk header instead.
  showDeveloperTools: "never",
  hideClientButton: true,
  // The dashboard is light; one tested colour scheme.
  forceDarkModeState: "light",
  hideDarkModeToggle: true,
  customCss: THEME_CSS,
  metaData: { title: "API reference · Coverdesk" },
};

/**
 * Scalar's code-block copy buttons keep their only text ("cURL", "Copy") in
 * spans that are `display: none` until the block is hovered or focused, so
 * they have no accessible name (axe button-name, critical). They are real
 * buttons, not decoration, so they get an aria-label here after render; a
 * MutationObserver covers the sections Scalar renders lazily while scrolling.
 */
function labelCopyButtons(root: HTMLElement) {
  for (const button of Array.from(root.querySelectorAll<HTMLButtonElement>("button.scalar-code-copy:not([aria-label])"))) {
    const language = button.querySelector(".sr-only span span")?.textContent?.trim();
    button.setAttribute("aria-label", language ? `Copy ${language}` : "Copy code");
  }
}

export function ApiReference() {
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = root.current;
    if (!el) return;
    labelCopyButtons(el);
    const observer = new MutationObserver(() => labelCopyButtons(el));
    observer.observe(el, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);

  return (
    <div ref={root}>
      <ApiReferenceReact configuration={CONFIGURATION} />
    </div>
  );
}
