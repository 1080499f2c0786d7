import { describe, expect, it } from "vitest";
import { hotp, matchingTotpStep, totpStepAt } from "./two-factor";

// RFC 4226 appendix D: the secret "12345678901234567890", counters 0..9.
const RFC_SECRET = "12345678901234567890";
const RFC_CODES = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"];

describe("hotp", () => {
  it("gives RFC 4226's test values", () => {
    expect(RFC_CODES.map((_, counter) => hotp(RFC_SECRET, counter))).toEqual(RFC_CODES);
  });
});

describe("matchingTotpStep", () => {
  const now = 1_800_000_015_000;
  const step = totpStepAt(now);
  it("finds the previous, current and next step, and nothing older or newer", () => {
    for (const offset of [-1, 0, 1]) expect(matchingTotpStep(RFC_SECRET, hotp(RFC_SECRET, step + offset), now)).toBe(step + offset);
    expect(matchingTotpStep(RFC_SECRET, hotp(RFC_SECRET, step - 2), now)).toBeNull();
    expect(matchingTotpStep(RFC_SECRET, hotp(RFC_SECRET, step + 2), now)).toBeNull();
  });
  it("refuses what is not six digits", () => {
    expect(matchingTotpStep(RFC_SECRET, "12345", now)).toBeNull();
    expect(matchingTotpStep(RFC_SECRET, "abcdef", now)).toBeNull();
  });
});
