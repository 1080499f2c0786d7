// Bounding work that is heavy for the machine (decoding images, parsing PDFs
// in a worker): at most `max` calls run at once, the others wait their turn,
// first come first served.
export function limiter(max: number): <T>(fn: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (fn) => {
    if (running >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await fn();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
