/**
 * Work that outlives its HTTP request is stopped: an action serving an `abandonable` route gets an AbortSignal that
 * fires when the gateway announces the request gone (its client's connection closed before the answer:
 * shared/gateway/request-gone.ts), or when the call's own timeout has passed (the caller has stopped waiting and
 * answered 504). Moleculer cannot cancel a call, so this is the service side: the action checks the signal between
 * units of work (connected goods: before each key derivation).
 */
import { TypedError } from "../domain/errors";

/** The reason a signal of this module aborts with; the client never sees it (it has gone, or was answered 504). */
class RequestAbandonedError extends TypedError<"REQUEST_ABANDONED"> {
  override readonly name = "RequestAbandonedError";
  constructor(why: "client gone" | "timed out") {
    super("REQUEST_ABANDONED", `The request was abandoned (${why}); its work stopped.`, { why });
  }
}

/** How many recently gone keys are remembered, for an announcement that arrives before its call starts. */
const RECENTLY_GONE = 1024;

/** Service side: the signals of the calls in progress, keyed by `meta.abortKey`. */
export class RequestSignals {
  private readonly open = new Map<string, Set<AbortController>>();
  private readonly gone = new Set<string>();

  /**
   * The signal of one call, aborted when its `key` (`meta.abortKey`) is announced gone or after `timeoutMs` (the
   * call's timeout; none when 0 or absent). `done()` must be called when the call ends.
   */
  enter(key: string | undefined, timeoutMs: number | undefined): { signal: AbortSignal; done(): void } {
    const controller = new AbortController();
    const timer =
      timeoutMs !== undefined && timeoutMs > 0
        ? setTimeout(() => controller.abort(new RequestAbandonedError("timed out")), timeoutMs)
        : undefined;
    timer?.unref();
    if (key !== undefined) {
      if (this.gone.has(key)) controller.abort(new RequestAbandonedError("client gone"));
      const set = this.open.get(key) ?? new Set();
      set.add(controller);
      this.open.set(key, set);
    }
    return {
      signal: controller.signal,
      done: () => {
        clearTimeout(timer);
        if (key === undefined) return;
        const set = this.open.get(key);
        set?.delete(controller);
        if (set?.size === 0) this.open.delete(key);
      },
    };
  }

  /** The gateway announced that request `key` is gone. */
  markGone(key: string): void {
    for (const c of this.open.get(key) ?? []) c.abort(new RequestAbandonedError("client gone"));
    this.gone.add(key);
    if (this.gone.size > RECENTLY_GONE) this.gone.delete(this.gone.values().next().value!);
  }

  /** Calls in progress (tests). */
  get openCalls(): number {
    let n = 0;
    for (const s of this.open.values()) n += s.size;
    return n;
  }
}
