// The test-time response check (VALIDATE_RESPONSES): a body that breaks its
// endpoint's declared schema — wrong type, missing or undeclared field — is caught.
import { describe, expect, it } from "vitest";
import { z } from "@/lib/messages";
import { ApiKey } from "@/lib/schemas/api-keys";
import { env } from "@/server/env";
import { restBindings } from "@/server/operations/pipeline";
import { responseMismatches } from "./response-check";

const key = {
  id: "k1",
  name: "CI",
  mode: "live",
  permissions: ["read"],
  prefix: "cd_live_abcd",
  status: "active",
  createdAt: "2026-01-02T03:04:05.000Z",
  lastUsedAt: null,
};
const body = (v: unknown) => JSON.stringify(v);
const KeyPage = z.object({ data: z.array(ApiKey), nextCursor: z.string().nullable() });

describe("responseMismatches", () => {
  it("accepts a body that matches", () => {
    expect(responseMismatches(ApiKey, body(key))).toEqual([]);
    expect(responseMismatches(KeyPage, body({ data: [key], nextCursor: null }))).toEqual([]);
  });

  it("names a wrong type and a missing field", () => {
    const { lastUsedAt: _gone, ...missing } = key;
    expect(responseMismatches(ApiKey, body({ ...key, status: 3 }))).toEqual([expect.stringMatching(/^status: /)]);
    expect(responseMismatches(ApiKey, body(missing))).toEqual([expect.stringMatching(/^lastUsedAt: /)]);
  });

  it("names an undeclared field, also inside a list (a leaked column is a mismatch)", () => {
    expect(responseMismatches(ApiKey, body({ ...key, hash: "x" }))).toEqual(["hash: not declared in the response schema"]);
    expect(responseMismatches(KeyPage, body({ data: [key, { ...key, keyHash: "x" }], nextCursor: null }))).toEqual([
      "data.1.keyHash: not declared in the response schema",
    ]);
  });

  it("flags a handler that answered nothing", () => {
    expect(responseMismatches(ApiKey, undefined)).toEqual(["(root): the handler answered nothing"]);
  });
});

describe("configuration", () => {
  it("is on in the test run, and every non-204 endpoint declares a response schema", () => {
    expect(env.VALIDATE_RESPONSES).toBe(true);
    const undeclared = restBindings
      .filter((b) => b.shape.status !== 204 && !b.response && !b.file)
      .map((b) => b.op.rest?.operationId);
    expect(undeclared).toEqual([]);
  });
});
