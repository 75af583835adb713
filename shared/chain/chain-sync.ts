/**
 * Chain-sync with resumption. Each subscription owns one connection. The cursor is the last point whose
 * handler call completed; after a disconnect we reconnect with backoff and find an intersection at the
 * cursor (or, if the chain moved away from it, at an older processed point, then the original start points),
 * so no block is delivered twice and none is skipped. The server's obligatory RollBackward to the resume
 * point is swallowed when it equals the cursor (nothing to undo); any deeper rollback reaches the handler.
 * Handlers run strictly one at a time, in chain order. The nextBlock requests asked for within one turn of the event
 * loop are written to the socket together (`requestBatcher`).
 */
import { createChainSynchronizationClient } from "@cardano-ogmios/client";
import { backoffMs, openContext, withTimeout, type Endpoint, type OpenedContext } from "./connection";
import { ChainError, toChainError } from "./errors";
import type { Block, Origin, Point, Tip } from "./types";

export interface ChainSyncHandler {
  rollForward(block: Block, tip: Tip | Origin): void | Promise<void>;
  rollBackward(point: Point | Origin, tip: Tip | Origin): void | Promise<void>;
}

export interface ChainSyncOptions {
  /** pipelined nextBlock requests (default 100) */
  inFlight?: number;
  /** called before each reconnect attempt */
  onReconnect?(info: { attempt: number; error: ChainError }): void;
  /** processed points kept to resume after a rollback of the cursor (default 100) */
  historySize?: number;
  /** called after each handler call completed and the cursor moved (e.g. to persist a checkpoint) */
  onCursor?(point: Point | Origin): void;
}

export type ChainSyncState = "running" | "reconnecting" | "stopped" | "failed";

export interface ChainSyncSubscription {
  /** where the first intersection was found */
  readonly intersection: Point | Origin;
  /** resolves after close(); rejects with a ChainError when the sync fails (handler threw, no intersection, gave up) */
  readonly done: Promise<void>;
  state(): ChainSyncState;
  /** the last point whose handler completed */
  cursor(): Point | Origin;
  /** how many times the connection was re-established */
  reconnects(): number;
  close(): Promise<void>;
}

export interface ChainSyncConnection {
  endpoint: Endpoint;
  timeoutMs: number;
  initialDelayMs: number;
  maxDelayMs: number;
  maxAttempts: number;
}

function pointOf(block: Block): Point {
  return { slot: (block as { slot?: number }).slot ?? 0, id: block.id };
}

function samePoint(a: Point | Origin, b: Point | Origin): boolean {
  if (a === "origin" || b === "origin") return a === b;
  return a.id === b.id && Number(a.slot) === Number(b.slot);
}

/** @throws ChainError (CHAIN_UNAVAILABLE, CHAIN_TIMEOUT, INTERSECTION_NOT_FOUND) when the first start fails */
export async function startChainSync(
  conn: ChainSyncConnection,
  startPoints: ReadonlyArray<Point | Origin>,
  handler: ChainSyncHandler,
  opts: ChainSyncOptions = {},
): Promise<ChainSyncSubscription> {
  const inFlight = opts.inFlight ?? 100;
  const historySize = opts.historySize ?? 100;
  let state: ChainSyncState = "running";
  let cursor: Point | Origin = "origin";
  const history: Point[] = [];
  let reconnects = 0;
  let opened: OpenedContext | undefined;
  let generation = 0;
  let swallowRollbackTo: Point | Origin | undefined;

  let settle: { resolve(): void; reject(e: ChainError): void } = { resolve: () => undefined, reject: () => undefined };
  const done = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  done.catch(() => undefined); // observed through the subscription

  const fail = (err: ChainError): void => {
    if (state === "stopped" || state === "failed") return;
    state = "failed";
    opened?.close();
    settle.reject(err);
  };

  const resumePoints = (): Array<Point | Origin> => {
    const out: Array<Point | Origin> = [cursor];
    for (let i = history.length - 1; i >= 0; i--) out.push(history[i] as Point);
    out.push(...startPoints);
    const seen = new Set<string>();
    return out.filter((p) => {
      const k = p === "origin" ? "origin" : `${p.slot}:${p.id}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  };

  /** After a block: it becomes the cursor and joins the (bounded) history. */
  const advanceTo = (p: Point): void => {
    cursor = p;
    history.push(p);
    if (history.length > historySize) history.shift();
  };

  /** After a rollback: the point becomes the cursor and the history forgets the points after it. */
  const rewindTo = (point: Point | Origin): void => {
    cursor = point;
    const slot = point === "origin" ? -1 : Number(point.slot);
    while (history.length > 0 && Number((history[history.length - 1] as Point).slot) > slot) history.pop();
  };

  const connect = async (points: Array<Point | Origin>): Promise<Point | Origin> => {
    const gen = ++generation;
    const ctx = await openContext(conn.endpoint, conn.timeoutMs);
    opened = ctx;
    const live = (): boolean => gen === generation && state !== "stopped" && state !== "failed";
    const requestNext = requestBatcher(ctx.context.socket);
    /**
     * Hands one message to the consumer's handler; once the handler completed, the cursor moves and the next
     * message is asked for. A throwing handler fails the sync.
     */
    const deliver = async (
      which: keyof ChainSyncHandler,
      callHandler: () => void | Promise<void>,
      moveCursor: () => void,
      next: () => void,
    ): Promise<void> => {
      swallowRollbackTo = undefined;
      try {
        await callHandler();
      } catch (err) {
        fail(handlerError(which, err));
        return;
      }
      moveCursor();
      opts.onCursor?.(cursor);
      if (live()) requestNext(() => live() && next());
    };
    const client = await createChainSynchronizationClient(
      ctx.context,
      {
        rollForward: async ({ block, tip }, next) => {
          if (!live()) return;
          await deliver(
            "rollForward",
            () => handler.rollForward(block, tip),
            () => advanceTo(pointOf(block)),
            next,
          );
        },
        rollBackward: async ({ point, tip }, next) => {
          if (!live()) return;
          if (swallowRollbackTo !== undefined && samePoint(point, swallowRollbackTo)) {
            swallowRollbackTo = undefined;
            next();
            return;
          }
          await deliver(
            "rollBackward",
            () => handler.rollBackward(point, tip),
            () => rewindTo(point),
            next,
          );
        },
      },
      { sequential: true },
    );
    void ctx.closed.then(() => {
      if (gen === generation && state === "running") void reconnect();
    });
    try {
      const found = await withTimeout(client.resume(points, inFlight), conn.timeoutMs, "findIntersection");
      return found.intersection;
    } catch (err) {
      ctx.close();
      throw toChainError(err, "findIntersection");
    }
  };

  const reconnect = async (): Promise<void> => {
    state = "reconnecting";
    for (let attempt = 1; attempt <= conn.maxAttempts; attempt++) {
      await delay(backoffMs(attempt, conn.initialDelayMs, conn.maxDelayMs));
      if (state !== "reconnecting") return; // closed meanwhile
      const points = resumePoints();
      swallowRollbackTo = cursor;
      try {
        const at = await connect(points);
        if ((state as ChainSyncState) !== "reconnecting") {
          opened?.close(); // closed while we were connecting: do not leave the new socket open
          return;
        }
        if (!samePoint(at, cursor)) swallowRollbackTo = undefined; // the chain moved: the handler must see the rollback
        reconnects++;
        state = "running";
        if (!opened?.isOpen()) void reconnect(); // dropped again before we got here
        return;
      } catch (err) {
        const e = toChainError(err, "chainSync.resume");
        if (e.type === "INTERSECTION_NOT_FOUND") return fail(e);
        opts.onReconnect?.({ attempt, error: e });
      }
    }
    fail(
      new ChainError("CHAIN_UNAVAILABLE", "chain-sync gave up reconnecting", undefined, undefined, { attempts: conn.maxAttempts }, true),
    );
  };

  let intersection: Point | Origin;
  try {
    intersection = await connect([...startPoints]);
  } catch (err) {
    // The caller gets this error: the closing socket must not start a background reconnect.
    state = "failed";
    generation++;
    throw err;
  }
  cursor = intersection;

  return {
    intersection,
    done,
    state: () => state,
    cursor: () => cursor,
    reconnects: () => reconnects,
    async close() {
      if (state === "stopped" || state === "failed") return;
      state = "stopped";
      generation++;
      const ctx = opened;
      if (ctx?.isOpen()) {
        ctx.close();
        await ctx.closed;
      }
      settle.resolve();
    },
  };
}

function handlerError(which: string, err: unknown): ChainError {
  const message = err instanceof Error ? err.message : String(err);
  return new ChainError("CHAIN_ERROR", `chain-sync ${which} handler failed: ${message}`, undefined, undefined, { cause: message }, false);
}

/**
 * Writes requests in groups: one socket write (one system call, one read for the server) for up to `groupSize`
 * requests, where there used to be a write per block — while catching up, the responses of a turn arrive together
 * and their handlers ask for as many next blocks, and those writes were the largest cost of a replay of empty
 * blocks. A group is written once full, or at the end of the event loop's turn (a group never waits longer); kept
 * small so the server always has requests to answer while the client works through a burst. Corks ws's underlying
 * net socket (ws keeps it in `_socket`); without it, each request is still written on its own.
 * @internal
 */
export function requestBatcher(webSocket: unknown, groupSize = REQUEST_GROUP): (send: () => void) => void {
  let pending: (() => void)[] = [];
  const flush = (): void => {
    const sends = pending;
    pending = [];
    const raw = (webSocket as { _socket?: { cork?: () => void; uncork?: () => void } | null })._socket;
    const corked = typeof raw?.cork === "function" && typeof raw.uncork === "function";
    if (corked) raw.cork!();
    for (const send of sends) {
      try {
        send();
      } catch {
        // the socket closed meanwhile: its close handling reconnects and asks again
      }
    }
    if (corked) raw.uncork!();
  };
  let scheduled = false;
  const flushScheduled = (): void => {
    scheduled = false;
    flush();
  };
  return (send) => {
    pending.push(send);
    if (pending.length >= groupSize) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flushScheduled);
    }
  };
}

/** Requests written together at most (a tenth of the default pipelining depth). */
const REQUEST_GROUP = 10;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
