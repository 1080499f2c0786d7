// The runner's switch: WORKER, with WEBHOOK_WORKER (its old name) still obeyed
// when WORKER is unset; and how long the audit.retention job keeps audit log
// entries. Each case parses the environment afresh, as a start does.
import { afterEach, describe, expect, it, vi } from "vitest";

const g = globalThis as unknown as { __coverdeskEnv?: unknown };

async function workerSetting(vars: { WORKER?: string; WEBHOOK_WORKER?: string }) {
  vi.stubEnv("WORKER", vars.WORKER);
  vi.stubEnv("WEBHOOK_WORKER", vars.WEBHOOK_WORKER);
  delete g.__coverdeskEnv;
  vi.resetModules();
  const { env } = await import("@/server/env");
  return { WORKER: env.WORKER, deprecatedAliasSet: env.WEBHOOK_WORKER !== undefined };
}

afterEach(() => {
  vi.unstubAllEnvs();
  delete g.__coverdeskEnv;
  vi.resetModules();
});

describe("WORKER", () => {
  it("runs the job runner in the app by default", async () => {
    expect(await workerSetting({})).toEqual({ WORKER: true, deprecatedAliasSet: false });
  });

  it("WORKER=false (or 0) keeps it out of this instance", async () => {
    expect((await workerSetting({ WORKER: "false" })).WORKER).toBe(false);
    expect((await workerSetting({ WORKER: "0" })).WORKER).toBe(false);
    expect((await workerSetting({ WORKER: "" })).WORKER).toBe(true);
  });

  it("WEBHOOK_WORKER, deprecated, still counts when WORKER is unset; WORKER wins when both are", async () => {
    expect(await workerSetting({ WEBHOOK_WORKER: "false" })).toEqual({ WORKER: false, deprecatedAliasSet: true });
    expect((await workerSetting({ WORKER: "true", WEBHOOK_WORKER: "false" })).WORKER).toBe(true);
    expect((await workerSetting({ WORKER: "false", WEBHOOK_WORKER: "true" })).WORKER).toBe(false);
  });

  it("a value that is not a yes or no stops the start, naming the variable", async () => {
    await expect(workerSetting({ WORKER: "maybe" })).rejects.toThrow(/WORKER/);
    await expect(workerSetting({ WEBHOOK_WORKER: "maybe" })).rejects.toThrow(/WEBHOOK_WORKER/);
  });
});

async function retentionDays(value: string | undefined) {
  vi.stubEnv("AUDIT_RETENTION_DAYS", value);
  delete g.__coverdeskEnv;
  vi.resetModules();
  const { env } = await import("@/server/env");
  return env.AUDIT_RETENTION_DAYS;
}

describe("AUDIT_RETENTION_DAYS", () => {
  it("keeps audit log entries two years by default, or as many days as given", async () => {
    expect(await retentionDays(undefined)).toBe(730);
    expect(await retentionDays("")).toBe(730);
    expect(await retentionDays("30")).toBe(30);
    expect(await retentionDays("3650")).toBe(3650);
  });

  it("fewer than 30 days, or not a whole number, stops the start, naming the variable", async () => {
    await expect(retentionDays("29")).rejects.toThrow(/AUDIT_RETENTION_DAYS: must be a whole number from 30/);
    await expect(retentionDays("0")).rejects.toThrow(/AUDIT_RETENTION_DAYS/);
    await expect(retentionDays("90.5")).rejects.toThrow(/AUDIT_RETENTION_DAYS/);
    await expect(retentionDays("two years")).rejects.toThrow(/AUDIT_RETENTION_DAYS/);
  });
});
