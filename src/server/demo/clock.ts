// The clock `npm run demo` dates its sample history with. The services write
// "now" as JS sees it — Prisma 7 fills @default(now()) and @updatedAt in the
// client, the settlement stamps paidAt, the ledger's rows carry the
// createdAt the daily rollups are summed by — so a process of its own (the
// demo script: nothing else runs in it) can make a purchase six months ago by
// setting its `Date` there for the length of that one call. Only `Date` is
// faked (@sinonjs/fake-timers, as test runners do): timers, the database
// pool's timeouts and `performance` keep real time, and the faked clock runs
// on from the time it was set, so the rows one call writes keep their order.
//
// Never in the app's server: a request beside the call would be dated there
// too. The dashboard's "Load sample data" passes no clock and dates
// everything now.
import { withGlobal, type Clock } from "@sinonjs/fake-timers";

/** Where the loader's service calls happen in time (see ./service.ts). */
export interface SampleClock {
  /** From now on, `new Date()` and `Date.now()` start at `at` and run on. */
  set(at: Date): void;
  /** Back to the real time. */
  reset(): void;
}

/** A clock that moves this whole process's `Date`: for a process that runs nothing else (scripts/demo.ts). */
export function processClock(): SampleClock {
  const timers = withGlobal(globalThis);
  let installed: Clock | undefined;
  const reset = () => {
    installed?.uninstall();
    installed = undefined;
  };
  return {
    set(at) {
      reset();
      installed = timers.install({ now: at, toFake: ["Date"], shouldAdvanceTime: true });
    },
    reset,
  };
}
