// The operation table's own invariants: one name per operation, one REST
// binding per method and path, and the dashboard's router is exactly the
// entries marked `dashboard`, each with its kind.
import { describe, expect, it } from "vitest";
import { appRouter } from "@/server/trpc/root";
import { operations } from "./index";
import { restBindings } from "./pipeline";

const dupes = (xs: string[]) => xs.filter((x, i) => xs.indexOf(x) !== i);

describe("the operation table", () => {
  it("names each operation once, and each REST operation and route once", () => {
    expect(dupes(operations.map((op) => op.name))).toEqual([]);
    const rest = operations.flatMap((op) => (op.rest ? [op.rest] : []));
    expect(dupes(rest.map((r) => r.operationId))).toEqual([]);
    expect(dupes(rest.map((r) => `${r.method} ${r.path}`))).toEqual([]);
    expect(restBindings.map((b) => b.op.rest?.operationId)).toEqual(rest.map((r) => r.operationId));
  });

  it("builds the dashboard's router from the entries marked `dashboard`, nothing else", () => {
    const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>;
    const dashboard = operations.filter((op) => op.dashboard);
    expect(Object.keys(procedures).sort()).toEqual(dashboard.map((op) => op.name).sort());
    for (const op of dashboard) expect(procedures[op.name]?._def.type, op.name).toBe(op.kind);
  });

  it("declares an answer schema for every dashboard operation and every REST JSON answer", () => {
    expect(operations.filter((op) => op.dashboard && !op.output).map((op) => op.name)).toEqual([]);
    const undeclared = restBindings.filter((b) => b.shape.status !== 204 && !b.response && !b.file);
    expect(undeclared.map((b) => b.op.name)).toEqual([]);
  });
});
