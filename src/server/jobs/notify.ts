// The cross-instance wake-up on PostgreSQL. An insert into an outbox table
// (event, mail_task, withdrawal) fires a statement trigger that calls
// pg_notify('coverdesk_jobs', <table>) — see the job_notify migration — and
// PostgreSQL delivers a notification only when its transaction commits, so a
// runner is never woken for a row it cannot see yet, nor for one rolled back.
// Each instance's runner holds one dedicated connection (outside the pool)
// that LISTENs on the channel, reconnecting after an error with a growing
// pause; after each (re)connection it wakes the runner once, for what
// committed while nobody listened. Notifications are only a wake-up: the
// runner's poll still finds everything, so a lost one costs a poll interval.
import pg from "pg";
import { logger } from "@/server/logger";

export const JOBS_CHANNEL = "coverdesk_jobs";
/** How the listening connection shows in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = "coverdesk-jobs-listener";

const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 10_000;

export interface JobsListener {
  close(): Promise<void>;
}

/** `onNotify(table)` for a notification (the table that got rows), `onNotify()` after each (re)connection. */
export function listenForJobs(connectionString: string, onNotify: (table?: string) => void): JobsListener {
  let closed = false;
  let client: pg.Client | null = null;
  let timer: NodeJS.Timeout | undefined;
  let pause = FIRST_RETRY_MS;

  const drop = (c: pg.Client, err?: unknown) => {
    if (client !== c) return; // already dropped
    client = null;
    c.end().catch(() => {});
    if (closed) return;
    logger.warn({ err, retryInMs: pause }, "job listener lost its connection; reconnecting");
    timer = setTimeout(connect, pause);
    pause = Math.min(pause * 2, MAX_RETRY_MS);
  };

  function connect() {
    if (closed) return;
    const c = new pg.Client({
      connectionString,
      application_name: LISTENER_APPLICATION_NAME,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      connectionTimeoutMillis: 10_000,
    });
    client = c;
    c.on("notification", (msg) => {
      if (msg.channel === JOBS_CHANNEL) onNotify(msg.payload || undefined);
    });
    c.on("error", (err) => drop(c, err));
    c.on("end", () => drop(c));
    c.connect()
      .then(() => c.query(`LISTEN ${JOBS_CHANNEL}`))
      .then(() => {
        if (client !== c) return;
        pause = FIRST_RETRY_MS;
        onNotify();
      })
      .catch((err: unknown) => drop(c, err));
  }

  connect();
  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}
