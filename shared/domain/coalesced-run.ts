/**
 * One catch-up at a time (read what is new, apply it): a call while a run is in progress shares that run and makes
 * it go round once more, so a notification that arrives mid-run is never lost.
 */
export class CoalescedRun<T> {
  private running: Promise<T> | undefined;
  private again = false;

  /**
   * @param run one run: what it does once, then `rounds(round)`, which runs `round` again for as long as a call
   *   came in during the last one
   */
  constructor(private readonly run: (rounds: (round: () => Promise<void>) => Promise<void>) => Promise<T>) {}

  /** Starts a run, or joins the one in progress and asks it for another round. */
  start(): Promise<T> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.run(this.rounds).finally(() => (this.running = undefined));
    return this.running;
  }

  private readonly rounds = async (round: () => Promise<void>): Promise<void> => {
    do {
      this.again = false;
      await round();
    } while (this.again);
  };
}
