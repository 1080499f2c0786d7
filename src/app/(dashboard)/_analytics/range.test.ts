// The range picker checks a range with the API's own rules and sentences
// (src/lib/date-range.ts, which the analytics schemas refine with), without zod.
import { describe, expect, it } from "vitest";
import { RANGE_MESSAGES } from "@/lib/date-range";
import { M } from "@/lib/messages";
import { RangeQuery, RevenueQuery } from "@/lib/schemas/analytics";
import { SeriesQuery } from "@/lib/schemas/earnings";
import { addDays, daysIn, MAX_SERIES_DAYS, presetRange, rangeError } from "./range";

const apiMessage = (from: string, to: string) => RangeQuery.safeParse({ from, to }).error?.issues[0]?.message ?? null;

describe("analytics range", () => {
  it("says what the API says for the same range", () => {
    const cases: [string, string][] = [
      ["2026-03-01", "2026-03-31"],
      ["2026-03-09", "2026-03-03"], // reversed
      ["2025-03-01", "2026-03-01"], // 366 days: the most
      ["2025-03-01", "2026-03-02"], // 367 days
      ["2026-01-01", "2026-01-01"], // one day
    ];
    for (const [from, to] of cases) {
      expect(rangeError(from, to), `${from}..${to}`).toBe(apiMessage(from, to));
      expect(RevenueQuery.safeParse({ from, to }).success).toBe(rangeError(from, to) === null);
      expect(SeriesQuery.safeParse({ from, to }).success).toBe(rangeError(from, to) === null);
    }
    expect(rangeError("2026-03-09", "2026-03-03")).toBe(M.dateOrder);
    expect(RANGE_MESSAGES.order).toBe(M.dateOrder);
    expect(rangeError("2025-03-01", "2026-03-02")).toBe(RANGE_MESSAGES.max);
    expect(RANGE_MESSAGES.max).toBe("Choose a period of at most 366 days");
  });

  it("needs both dates, each a real day (as z.iso.date)", () => {
    expect(rangeError("", "2026-03-01")).toBe("Choose both dates");
    expect(rangeError("2026-03-01", "")).toBe("Choose both dates");
    expect(rangeError("2026-02-30", "2026-03-01")).toBe("Choose both dates");
    expect(RangeQuery.safeParse({ from: "2026-02-30", to: "2026-03-01" }).success).toBe(false);
    expect(rangeError("2024-02-29", "2024-03-01")).toBeNull();
  });

  it("counts days both included, and the presets are ranges the API takes", () => {
    expect(daysIn("2026-01-01", "2026-01-01")).toBe(1);
    expect(daysIn("2025-03-01", "2026-03-01")).toBe(MAX_SERIES_DAYS);
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    for (const days of [7, 30, 90] as const) {
      const r = presetRange(days, "2026-03-31");
      expect(daysIn(r.from, r.to)).toBe(days);
      expect(apiMessage(r.from, r.to)).toBeNull();
    }
  });
});
