"use client";

import { ApiReferenceReact } from "@scalar/api-reference-react";
import "@scalar/api-reference-react/style.css";

// Rendered offline: no web fonts, no telemetry, no hosted extras.
export function ApiReference() {
  return (
    <ApiReferenceReact
      configuration={{
        url: "/api/v1/openapi.json",
        withDefaultFonts: false,
        telemetry: false,
        hideClientButton: true,
        agent: { disabled: true },
        mcp: { disabled: true },
        metaData: { title: "Coverdesk API reference" },
      }}
    />
  );
}
