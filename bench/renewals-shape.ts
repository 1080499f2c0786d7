// Issue 27's renewal job target and the results file bench/renewals.ts writes,
// shared with bench/run.ts (which runs it as a phase of `npm run bench`).

/** Due covers the target is about. */
export const RENEWAL_COVERS = 10_000;
/** …renewed in under this many seconds on PostgreSQL. */
export const RENEWAL_TARGET_S = 60;

export interface RenewalResults {
  measuredAt: string;
  machine: {
    cpus: number;
    cpuModel: string | null;
    memoryGB: number;
    node: string;
    postgres: string;
    /** os.loadavg() once the runners were connected, before the run */
    loadAverageAtStart: number[];
  };
  covers: number;
  runners: number;
  /** from the start of the runners to the last one's end */
  seconds: number;
  coversPerSecond: number;
  /** the runners' own CPU time over the covers (PostgreSQL's not counted) */
  runnerCpuMsPerCover: number;
  targetSeconds: number;
  /** under the target at RENEWAL_COVERS covers and the database right; null at another shape */
  pass: boolean | null;
  /** what the database after the run got wrong (empty: every cover renewed once) */
  wrong: string[];
  counts: Record<string, number>;
  perRunner: {
    seconds: number;
    cpuSeconds: number;
    calls: number;
    charged: number;
    renewed: number;
    declined: number;
    stopped: number;
  }[];
  profile?: { samples: number; top: { key: string; perSample: number }[] };
}
