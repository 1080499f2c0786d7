import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// A client component ("use client") never imports server code: the schemas it
// shares with the API live in src/lib/schemas; a type-only import (AppRouter) is fine.
const clientBoundary = {
  meta: {
    type: "problem",
    messages: {
      server: "A client component must not import {{source}}: share code through src/lib (schemas in src/lib/schemas).",
    },
  },
  create(context) {
    const isClient = context.sourceCode.ast.body.some(
      (n) => n.type === "ExpressionStatement" && n.directive === "use client",
    );
    if (!isClient) return {};
    const check = (node, source, typeOnly) => {
      if (typeof source !== "string" || typeOnly) return;
      if (/^@\/server(\/|$)/.test(source) || /(^|\/)src\/server\//.test(source))
        context.report({ node, messageId: "server", data: { source } });
    };
    const onlyTypes = (node) =>
      node.importKind === "type" ||
      node.exportKind === "type" ||
      (node.specifiers?.length > 0 && node.specifiers.every((s) => s.importKind === "type" || s.exportKind === "type"));
    return {
      ImportDeclaration: (node) => check(node, node.source.value, onlyTypes(node)),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value, onlyTypes(node)),
      ExportAllDeclaration: (node) => check(node, node.source.value, node.exportKind === "type"),
      ImportExpression: (node) => check(node, node.source.value, false),
    };
  },
};

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      ".next-*/**",
      "src/generated/**",
      "src/client/schema.d.ts",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
    ],
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
    },
  },
  {
    files: ["src/**/*.{ts,tsx}"],
    plugins: { coverdesk: { rules: { "client-boundary": clientBoundary } } },
    rules: { "coverdesk/client-boundary": "error" },
  },
  {
    // One source of field-error wording: zod comes from src/lib/messages.ts, which installs it.
    files: ["src/**/*.{ts,tsx}"],
    ignores: ["src/lib/messages.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "zod",
              message: 'Import { z } from "@/lib/messages": its messages are the ones people read.',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
];

export default config;
