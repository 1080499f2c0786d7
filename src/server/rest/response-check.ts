// Test-time check that a REST answer matches the response schema its endpoint
// declares (and the OpenAPI document publishes): the JSON as the client gets
// it, with no undeclared field (the document says additionalProperties: false).
import { isDeepStrictEqual } from "node:util";
import type { z } from "zod";

/** Problems with `json` (the serialized body) against `schema`; empty when it matches. */
export function responseMismatches(schema: z.ZodType, json: string | undefined): string[] {
  if (json === undefined) return ["(root): the handler answered nothing"];
  const wire: unknown = JSON.parse(json);
  const parsed = schema.safeParse(wire);
  if (!parsed.success) {
    return parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
  }
  // Zod objects strip unknown keys: whatever the parse dropped was not declared.
  const declared: unknown = JSON.parse(JSON.stringify(parsed.data));
  if (isDeepStrictEqual(wire, declared)) return [];
  const extra = undeclaredPaths(wire, declared, "");
  return extra.length > 0 ? extra.map((p) => `${p}: not declared in the response schema`) : ["(root): changed by its schema"];
}

function undeclaredPaths(wire: unknown, declared: unknown, at: string): string[] {
  if (Array.isArray(wire) && Array.isArray(declared)) {
    return wire.flatMap((item, i) => undeclaredPaths(item, declared[i], `${at}${at ? "." : ""}${i}`));
  }
  if (wire && declared && typeof wire === "object" && typeof declared === "object") {
    const d = declared as Record<string, unknown>;
    return Object.entries(wire).flatMap(([k, v]) => {
      const path = `${at}${at ? "." : ""}${k}`;
      return k in d ? undeclaredPaths(v, d[k], path) : [path];
    });
  }
  return [];
}
