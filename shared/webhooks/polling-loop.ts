/**
 * A background loop for the engine's workers: runs `work` now, then again `intervalMs` after each run ends, or at
 * once when woken. One run at a time; `stop` waits for the run in progress. Errors go to `onError` and the loop
 * goes on (a store that is briefly unavailable must not stop deliveries for good).
 */
export interface PollingLoop {
  /** Runs the work as soon as the current run (if any) ends. */
  wake(): void;
  /** Ends the loop; resolves when the run in progress has ended. */
  stop(): Promise<void>;
}

export function startPollingLoop(work: () => Promise<unknown>, intervalMs: number, onError: (err: unknown) => void): PollingLoop {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;

  const schedule = (delay: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(run, delay);
  };
  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    again = false;
    running = work()
      .then(
        () => undefined,
        (err: unknown) => onError(err),
      )
      .finally(() => {
        running = undefined;
        schedule(again ? 0 : intervalMs);
      });
  };
  schedule(0);
  return {
    wake() {
      if (running) again = true;
      else schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
