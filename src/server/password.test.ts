// Password hashes: better-auth's format (and its own hashes) still verify, a
// lower or higher cost is recorded in the hash, and anything else never
// verifies.
import { hashPassword as betterAuthHash } from "better-auth/crypto";
import { describe, expect, it } from "vitest";
import { DEFAULT_N, hashPassword, verifyPassword } from "./password";

describe("password hashes", () => {
  it("at the default cost: better-auth's own format, and better-auth's hashes verify", async () => {
    const ours = await hashPassword("correct-horse-battery", DEFAULT_N);
    expect(ours).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
    expect(await verifyPassword({ hash: ours, password: "correct-horse-battery" })).toBe(true);
    const theirs = await betterAuthHash("correct-horse-battery");
    expect(await verifyPassword({ hash: theirs, password: "correct-horse-battery" })).toBe(true);
    expect(await verifyPassword({ hash: theirs, password: "correct-horse-batterY" })).toBe(false);
  });

  it("another cost is recorded in the hash and verifies whatever PASSWORD_SCRYPT_N is now", async () => {
    const cheap = await hashPassword("pässwörd-1", 1024);
    expect(cheap).toMatch(/^scrypt\$1024\$[0-9a-f]{32}\$[0-9a-f]{128}$/);
    expect(await verifyPassword({ hash: cheap, password: "pässwörd-1" })).toBe(true);
    // NFKC: the same password typed with a combining accent.
    expect(await verifyPassword({ hash: cheap, password: "pa\u0308sswo\u0308rd-1" })).toBe(true);
    expect(await verifyPassword({ hash: cheap, password: "pässwörd-2" })).toBe(false);
    // The recorded cost is the one used: the same salt and key claimed at another N do not verify.
    expect(await verifyPassword({ hash: cheap.replace("$1024$", "$2048$"), password: "pässwörd-1" })).toBe(false);
  });

  it.each([
    ["empty", ""],
    ["no key", "0123456789abcdef0123456789abcdef:"],
    ["a cost that is not a power of two", `scrypt$1000$${"a".repeat(32)}$${"b".repeat(128)}`],
    ["a cost too small", `scrypt$512$${"a".repeat(32)}$${"b".repeat(128)}`],
    ["another algorithm", "$2b$10$abcdefghijklmnopqrstuu5b4R6TGy1Xo9HUhwJ5m3EY8E4qcUi6O"],
  ])("%s never verifies", async (_, hash) => {
    expect(await verifyPassword({ hash, password: "anything" })).toBe(false);
  });
});
