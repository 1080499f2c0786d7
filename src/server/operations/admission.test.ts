// Admission of REST writes: at most WRITE_CONCURRENCY at once, the rest in
// order, and one that waited WRITE_QUEUE_MS refused with 503 having done
// nothing; a place freed by a finished or failed write passes to the next.
import { afterEach, describe, expect, it } from "vitest";
import { env } from "@/server/env";
import { AppError } from "@/server/errors";
import { admissionState, admitWrite } from "./admission";

const saved = { concurrency: env.WRITE_CONCURRENCY, queueMs: env.WRITE_QUEUE_MS };
afterEach(() => {
  env.WRITE_CONCURRENCY = saved.concurrency;
  env.WRITE_QUEUE_MS = saved.queueMs;
});

const deferred = () => {
  let release!: () => void;
  const done = new Promise<void>((r) => (release = r));
  return { done, release };
};

describe("admitWrite", () => {
  it("runs two at once, the third after one of them, in order; nothing runs twice", async () => {
    env.WRITE_CONCURRENCY = 2;
    env.WRITE_QUEUE_MS = 5_000;
    const gates = [deferred(), deferred(), deferred()];
    const started: number[] = [];
    const runs = gates.map((g, i) =>
      admitWrite(async () => {
        started.push(i);
        await g.done;
        return i;
      }),
    );
    await new Promise((r) => setTimeout(r, 20));
    expect(started).toEqual([0, 1]);
    expect(admissionState()).toEqual({ running: 2, queued: 1 });
    gates[1]!.release();
    await new Promise((r) => setTimeout(r, 20));
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.release();
    gates[2]!.release();
    expect(await Promise.all(runs)).toEqual([0, 1, 2]);
    expect(admissionState()).toEqual({ running: 0, queued: 0 });
  });

  it("sheds a write that waited WRITE_QUEUE_MS with 503 service_unavailable, its work never run", async () => {
    env.WRITE_CONCURRENCY = 1;
    env.WRITE_QUEUE_MS = 50;
    const gate = deferred();
    const first = admitWrite(() => gate.done);
    let ran = false;
    const second = admitWrite(async () => {
      ran = true;
    });
    const refused = await second.then(
      () => null,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe("service_unavailable");
    expect((refused as AppError).status).toBe(503);
    expect(ran).toBe(false);
    expect(admissionState()).toEqual({ running: 1, queued: 0 });
    gate.release();
    await first;
    expect(admissionState()).toEqual({ running: 0, queued: 0 });
  });

  it("a write that throws frees its place for the next", async () => {
    env.WRITE_CONCURRENCY = 1;
    env.WRITE_QUEUE_MS = 5_000;
    const failing = admitWrite(async () => {
      await new Promise((r) => setTimeout(r, 10));
      throw new Error("refused by the database");
    });
    const next = admitWrite(async () => "ran");
    await expect(failing).rejects.toThrow("refused by the database");
    expect(await next).toBe("ran");
    expect(admissionState()).toEqual({ running: 0, queued: 0 });
  });
});
