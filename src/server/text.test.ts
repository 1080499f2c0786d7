import { describe, expect, it } from "vitest";
import { AppError } from "@/server/errors";
import { assertSafeInput, isSafeText, Text, unsafeTextErrors } from "./text";

describe("safe text", () => {
  it("refuses NUL and unpaired surrogates, keeps every other character", () => {
    for (const bad of ["a\u0000b", "\u0000", "x\uD800", "\uDC00y", "\uDBFFa\uDC00"]) expect(isSafeText(bad), JSON.stringify(bad)).toBe(false);
    for (const good of ["", "plain", "naïve — ok", "emoji 😀", "\u0001\t\n", "\uFFFD"]) expect(isSafeText(good), good).toBe(true);
    expect(Text.safeParse("a\u0000b").success).toBe(false);
    expect(Text.safeParse("😀").success).toBe(true);
  });

  it("finds unsafe text at any depth, in values and in keys", () => {
    const value = { name: "ok", nested: { list: ["fine", "bad\u0000"] }, ["k\uD800"]: 1, n: 5, b: true, z: null };
    expect(unsafeTextErrors(value).map((e) => e.path)).toEqual(["nested.list.1", "(key)"]);
    expect(unsafeTextErrors("\u0000", ["query", "q"])[0]?.path).toBe("query.q");
  });

  it("answers 422 validation_failed with the positions", () => {
    const err = (() => {
      try {
        assertSafeInput({ name: "a\u0000b" }, "body");
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(422);
    expect((err as AppError).extra.errors).toEqual([{ path: "body.name", message: expect.stringMatching(/NUL/) }]);
    expect(() => assertSafeInput({ name: "fine", list: [1, "😀"] })).not.toThrow();
  });
});
