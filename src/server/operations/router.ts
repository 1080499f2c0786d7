// Matches a method and path against a table of bindings: 404 for an unknown
// path, 405 (with Allow) for a known path and another method.
import { AppError } from "@/server/errors";

interface Route<T> {
  pattern: RegExp;
  names: string[];
  byMethod: Map<string, T>;
}

export interface Match<T> {
  endpoint: T;
  params: Record<string, string>;
}

export function createRouter<T extends { method: string; path: string }>(endpoints: readonly T[]) {
  const routes = new Map<string, Route<T>>();
  for (const ep of endpoints) {
    let route = routes.get(ep.path);
    if (!route) {
      const names: string[] = [];
      const source = ep.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)\}/g, (_, name: string) => {
        names.push(name);
        return "([^/]+)";
      });
      route = { pattern: new RegExp(`^${source}/?$`), names, byMethod: new Map() };
      routes.set(ep.path, route);
    }
    route.byMethod.set(ep.method, ep);
  }
  // Literal segments win over parameters: `/deliveries/x` before `/{id}`.
  const ordered = [...routes.values()].sort((a, b) => a.names.length - b.names.length);

  return function match(method: string, path: string): Match<T> {
    for (const route of ordered) {
      const m = route.pattern.exec(path);
      if (!m) continue;
      const endpoint = route.byMethod.get(method);
      if (!endpoint) {
        throw new AppError("method_not_allowed", `${method} is not allowed on ${path}`, {
          allow: [...route.byMethod.keys()].join(", "),
        });
      }
      const params: Record<string, string> = {};
      route.names.forEach((name, i) => {
        params[name] = decodeSegment(m[i + 1] ?? "");
      });
      return { endpoint, params };
    }
    throw new AppError("not_found", `No route for ${method} ${path}`);
  };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new AppError("invalid_path", "The path holds a malformed percent-encoding");
  }
}
