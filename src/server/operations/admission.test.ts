// Admission of REST writes: at most WRITE_CONCURRENCY at once, the rest in
// order, and one that waited WRITE_QUEUE_MS refused with 503 having done
// nothing; a place freed by a finished or failed write passes to the next.
import { afterEach, describe, expect, it } from "vitest";
import { env } from "@/server/env";
import { AppError } from "@/server/errors";
import { admissionServiceMs, admissionState, admitWrite, assertNotBehind, behindBy, resetAdmissionServiceMs } from "./admission";
import { loopUtilization } from "./busy";

const saved = { concurrency: env.WRITE_CONCURRENCY, queueMs: env.WRITE_QUEUE_MS };
afterEach(() => {
  resetAdmissionServiceMs();
  env.WRITE_CONCURRENCY = saved.concurrency;
  env.WRITE_QUEUE_MS = saved.queueMs;
});

/** The error a write was refused with, or null once it ran. */
const refusalOf = (write: Promise<unknown>) =>
  write.then(
    () => null,
    (err: unknown) => err,
  );

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

  it("counts the wait from the request's arrival: one that arrived WRITE_QUEUE_MS ago is shed at once, one that arrived earlier waits only the rest", async () => {
    env.WRITE_CONCURRENCY = 1;
    env.WRITE_QUEUE_MS = 200;
    const gate = deferred();
    const first = admitWrite(() => gate.done);
    let ran = 0;
    const work = async () => {
      ran++;
    };
    const t0 = performance.now();
    const late = await refusalOf(admitWrite(work, t0 - 200));
    expect((late as AppError).code).toBe("service_unavailable");
    expect(performance.now() - t0).toBeLessThan(50);
    expect(admissionState()).toEqual({ running: 1, queued: 0 });
    const t1 = performance.now();
    const halfway = await refusalOf(admitWrite(work, t1 - 150));
    expect((halfway as AppError).code).toBe("service_unavailable");
    // It waited the 50 ms left of its 200, not 200 more.
    expect(performance.now() - t1).toBeGreaterThanOrEqual(40);
    expect(performance.now() - t1).toBeLessThan(150);
    expect(ran).toBe(0);
    // A free place admits a request however long ago it arrived: the deadline is for waiting, not for working.
    gate.release();
    await first;
    await admitWrite(work, performance.now() - 10_000);
    expect(ran).toBe(1);
    expect(admissionState()).toEqual({ running: 0, queued: 0 });
  });

  it("refuses at once a write whose place in line could not come before its time is up (from the recent time of a write)", async () => {
    env.WRITE_CONCURRENCY = 2;
    env.WRITE_QUEUE_MS = 60_000;
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    // Writes take ~100 ms lately (s, as measured); the queue's time is set so the 7th in line (3.5 s of
    // waiting) is within it and the 8th (4 s) is not, with half an s to spare either way.
    await Promise.all([admitWrite(() => sleep(100)), admitWrite(() => sleep(100))]);
    const s = admissionServiceMs();
    expect(s).toBeGreaterThanOrEqual(90);
    env.WRITE_QUEUE_MS = Math.round(3.75 * s);
    const gates = [deferred(), deferred()];
    const running = gates.map((g) => admitWrite(() => g.done));
    // Two places free per s: the 1st … 7th in line expect 0.5 s … 3.5 s, within their 3.75 s; the 8th expects 4 s.
    const ran: number[] = [];
    const t0 = performance.now();
    const waiting = Array.from({ length: 9 }, (_, i) =>
      admitWrite(async () => void ran.push(i)).then(
        () => ({ i, ms: performance.now() - t0, code: null as string | null }),
        (err: AppError) => ({ i, ms: performance.now() - t0, code: err.code }),
      ),
    );
    await sleep(20);
    expect(admissionState()).toEqual({ running: 2, queued: 7 });
    const answered = await Promise.all(waiting);
    // The 8th and 9th were refused at once, having done nothing; the 1st … 7th waited (and were shed when their time was up:
    // nothing freed a place).
    expect(answered.slice(7).map((a) => a.code)).toEqual(["service_unavailable", "service_unavailable"]);
    for (const a of answered.slice(7)) expect(a.ms).toBeLessThan(50);
    for (const a of answered.slice(0, 7)) expect(a.ms).toBeGreaterThanOrEqual(env.WRITE_QUEUE_MS - 10);
    expect(ran).toEqual([]);
    gates.forEach((g) => g.release());
    await Promise.all(running);
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

describe("a write read far behind its arrival", () => {
  /** Waits for the next sample of the loop's utilization (a quarter second each). */
  const nextSample = () => new Promise((r) => setTimeout(r, 300));

  it("is refused when the loop is saturated, admitted when it is idle or the wait was short", async () => {
    env.WRITE_QUEUE_MS = 1_000;
    loopUtilization();
    await nextSample();
    await nextSample();
    // Idle: a connection opened long before its request (a warm pool) is no sign of a process behind.
    expect(loopUtilization()).toBeLessThan(0.5);
    expect(behindBy(5_000)).toBe(0);
    expect(() => assertNotBehind(behindBy(5_000))).not.toThrow();
    // Saturated: the loop busy for several samples, with only a moment between pieces of work.
    const end = performance.now() + 800;
    while (performance.now() < end) {
      const piece = performance.now() + 50;
      while (performance.now() < piece) {
        // busy, as under a burst
      }
      await new Promise((r) => setImmediate(r));
    }
    expect(loopUtilization()).toBeGreaterThanOrEqual(0.9);
    expect(behindBy(999)).toBe(999);
    expect(() => assertNotBehind(behindBy(999))).not.toThrow();
    let refused: unknown = null;
    try {
      assertNotBehind(behindBy(1_000));
    } catch (err) {
      refused = err;
    }
    expect((refused as AppError).code).toBe("service_unavailable");
  });
});
