/**
 * Mempool monitoring over a dedicated connection (Ogmios keeps the acquired snapshot per connection).
 * Calls are serialised: the Ogmios client pairs mempool replies in FIFO order. A timeout closes the
 * connection, because a late reply would otherwise be paired with the next request.
 */
import { createMempoolMonitoringClient, type MempoolMonitoring } from "@cardano-ogmios/client";

type MempoolMonitoringClient = MempoolMonitoring.MempoolMonitoringClient;
import { backoffMs, openContext, withTimeout, type Endpoint, type OpenedContext } from "./connection";
import { ChainError, toChainError } from "./errors";
import type { MempoolSizeAndCapacity, Transaction } from "./types";

export interface MempoolSnapshot {
  slot: number;
  transactions: Transaction[];
}

export interface MempoolMonitor {
  /** acquires a snapshot; on a real Ogmios a re-acquire waits until the mempool changes (pass a timeout) */
  acquire(timeoutMs?: number): Promise<number>;
  hasTransaction(txId: string): Promise<boolean>;
  /** next transaction id of the acquired snapshot, or null when exhausted */
  nextTransactionId(): Promise<string | null>;
  /** next full transaction of the acquired snapshot, or null when exhausted */
  nextTransaction(): Promise<Transaction | null>;
  size(): Promise<MempoolSizeAndCapacity>;
  release(): Promise<void>;
  /** acquire + read every transaction */
  snapshot(timeoutMs?: number): Promise<MempoolSnapshot>;
  close(): Promise<void>;
  readonly closed: Promise<void>;
}

export async function openMempool(endpoint: Endpoint, timeoutMs: number): Promise<MempoolMonitor> {
  const opened: OpenedContext = await openContext(endpoint, timeoutMs);
  const client: MempoolMonitoringClient = await createMempoolMonitoringClient(opened.context);
  let queue: Promise<unknown> = Promise.resolve();
  const closed = opened.closed.then(() => undefined);

  const run = <T>(operation: string, fn: () => Promise<T>, ms: number = timeoutMs): Promise<T> => {
    const next = queue.then(async () => {
      if (!opened.isOpen())
        throw new ChainError("CHAIN_UNAVAILABLE", `${operation}: mempool connection is closed`, undefined, undefined, {}, true);
      try {
        return Number.isFinite(ms) ? await withTimeout(fn(), ms, operation) : await fn();
      } catch (err) {
        const e = toChainError(err, operation);
        if (e.type === "CHAIN_TIMEOUT") opened.close();
        throw e;
      }
    });
    queue = next.catch(() => undefined);
    return next;
  };

  const monitor: MempoolMonitor = {
    acquire: (ms) => run("acquireMempool", () => client.acquireMempool({}), ms ?? timeoutMs).then(Number),
    hasTransaction: (txId) => run("hasTransaction", () => client.hasTransaction(txId)),
    nextTransactionId: () => run("nextTransaction", () => client.nextTransaction()),
    nextTransaction: () => run("nextTransaction", () => client.nextTransaction({ fields: "all" })),
    size: () => run("sizeOfMempool", () => client.sizeOfMempool({})),
    release: () => run("releaseMempool", () => client.releaseMempool({})),
    async snapshot(ms) {
      const slot = await monitor.acquire(ms);
      const transactions: Transaction[] = [];
      for (;;) {
        const tx = await monitor.nextTransaction();
        if (tx === null) break;
        transactions.push(tx);
      }
      return { slot, transactions };
    },
    async close() {
      if (opened.isOpen()) opened.close();
      await closed;
    },
    closed,
  };
  return monitor;
}

export interface MempoolWatchHandler {
  /** each transaction once, the first time a snapshot contains it */
  onTransaction(tx: Transaction): void | Promise<void>;
}

export interface MempoolWatch {
  readonly done: Promise<void>;
  close(): Promise<void>;
}

/**
 * Re-acquires mempool snapshots until closed and reports new transactions. Real Ogmios blocks a re-acquire
 * until the mempool changes; servers that answer at once are polled every `pollIntervalMs`. Reconnects with
 * backoff after connection loss. The acquire has no timeout (it may legitimately wait).
 */
export async function watchMempool(
  endpoint: Endpoint,
  timeoutMs: number,
  handler: MempoolWatchHandler,
  opts: { pollIntervalMs: number; initialDelayMs: number; maxDelayMs: number },
): Promise<MempoolWatch> {
  let stopped = false;
  let monitor = await openMempool(endpoint, timeoutMs);
  let wake: () => void = () => undefined;
  const seen = new Set<string>();

  const loop = async (): Promise<void> => {
    let failures = 0;
    while (!stopped) {
      try {
        await monitor.acquire(Infinity);
        const present = new Set<string>();
        for (;;) {
          const tx = await monitor.nextTransaction();
          if (tx === null) break;
          present.add(tx.id);
          if (!seen.has(tx.id)) {
            seen.add(tx.id);
            await handler.onTransaction(tx);
          }
        }
        for (const id of seen) if (!present.has(id)) seen.delete(id);
        failures = 0;
        await sleep(opts.pollIntervalMs, (w) => (wake = w));
      } catch (err) {
        if (stopped) return;
        const e = toChainError(err, "watchMempool");
        if (e.type !== "CHAIN_UNAVAILABLE" && e.type !== "CHAIN_TIMEOUT") throw e;
        failures++;
        await sleep(backoffMs(failures, opts.initialDelayMs, opts.maxDelayMs), (w) => (wake = w));
        if (stopped) return;
        try {
          await monitor.close();
          monitor = await openMempool(endpoint, timeoutMs);
        } catch {
          // retried on the next turn
        }
      }
    }
  };
  const done = loop();
  done.catch(() => undefined);
  return {
    done,
    async close() {
      stopped = true;
      wake();
      await monitor.close();
      await done.catch(() => undefined);
    },
  };
}

function sleep(ms: number, onWake: (wake: () => void) => void): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    onWake(() => {
      clearTimeout(t);
      resolve();
    });
  });
}
