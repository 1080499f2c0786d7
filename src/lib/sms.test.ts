// smsSegments' fast path (plain GSM-7 counted from the library's table) answers exactly what
// Twilio's sms-segments-calculator answers, for every kind of text; the rest is the library's.
import { describe, expect, it } from "vitest";
import { SegmentedMessage } from "sms-segments-calculator";
import UnicodeToGsm from "sms-segments-calculator/dist/libs/UnicodeToGSM";
import { smsSegments } from "./sms";

const library = (text: string) => {
  const m = new SegmentedMessage(text, "auto", false);
  return { encoding: m.encodingName, segments: m.segmentsCount, characters: m.numberOfCharacters };
};

// A seeded generator: the same texts on every run.
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

const GSM = Object.keys(UnicodeToGsm).map((code) => String.fromCharCode(Number(code)));
const PLAIN = GSM.filter((c) => UnicodeToGsm[c.charCodeAt(0)]!.length === 1 && c !== "\r");
const ESCAPED = GSM.filter((c) => UnicodeToGsm[c.charCodeAt(0)]!.length === 2);

describe("smsSegments", () => {
  it("matches the library on 1 200 texts: plain GSM-7, with two-septet characters, with a UCS-2 one, of 0–400 characters", () => {
    const next = random(42);
    const pick = (set: string[]) => set[Math.floor(next() * set.length)]!;
    for (let n = 0; n < 1200; n++) {
      const length = Math.floor(next() * 400);
      const kind = n % 4;
      let text = "";
      for (let i = 0; i < length; i++) {
        const r = next();
        text +=
          kind >= 1 && r < 0.05 ? pick(ESCAPED) : kind === 2 && r < 0.06 ? "ọ" : kind === 3 && r < 0.02 ? "\r\n" : pick(PLAIN);
      }
      expect(smsSegments(text), JSON.stringify(text)).toEqual(library(text));
    }
  });

  it("at the boundaries: 160 and 161 septets, a two-septet character at 153/154, empty, an emoji", () => {
    for (const text of [
      "a".repeat(160),
      "a".repeat(161),
      "a".repeat(306),
      "a".repeat(307),
      `${"a".repeat(152)}€${"b".repeat(20)}`,
      `${"a".repeat(153)}€${"b".repeat(20)}`,
      `${"a".repeat(158)}€`,
      `${"a".repeat(159)}€`,
      "",
      "Paid 👍",
      "Ọlọ́run",
    ]) {
      expect(smsSegments(text), text).toEqual(library(text));
    }
  });

  it("counts a typical notice in microseconds, not the library's milliseconds", () => {
    const text =
      "Coverdesk: we received your claim CLM-2026-000123 for NGN 40,000.00 on Shop Fire & Burglary. Track it: https://app.coverdesk.test/portal/abc/claims/xyz";
    const started = performance.now();
    for (let i = 0; i < 1000; i++) smsSegments(text);
    // The library takes ~0.7 ms a text on this machine (700 ms for 1 000); the table ~1 µs.
    expect(performance.now() - started).toBeLessThan(100);
  });
});
