// How many requests this process's operation pipeline is working on right
// now (REST and the app's routes, from their start to their answer; a stream
// counts until its answer starts, not while it streams). The job runner's
// background lanes give way while it is above zero (src/server/jobs/runner.ts).
let working = 0;

export const requestsWorking = () => working;

/** Counts `work` as a request being worked on until it settles. */
export async function countWorking<T>(work: () => Promise<T>): Promise<T> {
  working++;
  try {
    return await work();
  } finally {
    working--;
  }
}
