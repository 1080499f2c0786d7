import { describe, expect, it } from "vitest";
import { newId } from "./ids";

describe("newId", () => {
  it("makes cuid2-shaped ids, all different, every character used about evenly", () => {
    const ids = Array.from({ length: 20_000 }, newId);
    for (const id of ids.slice(0, 1000)) expect(id).toMatch(/^[a-z][a-z0-9]{23}$/);
    expect(new Set(ids).size).toBe(ids.length);
    const counts = new Map<string, number>();
    for (const id of ids) for (const ch of id.slice(1)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(36);
    const expected = (ids.length * 23) / 36;
    for (const n of counts.values()) expect(Math.abs(n - expected) / expected).toBeLessThan(0.05);
  });
});
