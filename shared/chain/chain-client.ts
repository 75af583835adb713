/**
 * The one way services reach a chain (a real Ogmios v6 or our devnet): ledger-state queries, submit, evaluate,
 * chain-sync and mempool monitoring, over @cardano-ogmios/client 6.14.0, with per-request timeouts,
 * reconnection and typed errors (errors.ts). Only standard Ogmios methods are used.
 */
import { createLedgerStateQueryClient, type TransactionSubmission, type LedgerStateQuery } from "@cardano-ogmios/client";

type LedgerStateQueryClient = LedgerStateQuery.LedgerStateQueryClient;
import { startChainSync, type ChainSyncHandler, type ChainSyncOptions, type ChainSyncSubscription } from "./chain-sync";
import { backoffMs, endpointOf, openContext, withTimeout, type Endpoint, type OpenedContext } from "./connection";
import { ChainError, toChainError } from "./errors";
import { requestMux, type RequestMux } from "./request-mux";
import { openMempool, watchMempool, type MempoolMonitor, type MempoolWatch, type MempoolWatchHandler } from "./mempool";
import type { EraSummary, Evaluation, GenesisByEra, Origin, OutputReference, Point, ProtocolParameters, UtxoEntry } from "./types";

export interface ReconnectOptions {
  /** first retry delay (default 100 ms), doubled per attempt up to maxDelayMs (default 5 s) */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** attempts before giving up (chain-sync default: unlimited; requests: 3) */
  maxAttempts?: number;
}

export interface ChainClientOptions {
  /** ws://host:port of Ogmios (or the devnet) */
  url: string;
  /** per request (default 30 s); also bounds connecting */
  requestTimeoutMs?: number;
  reconnect?: ReconnectOptions;
}

export interface ChainClient {
  readonly url: string;
  /** opens the request connection now (otherwise on first use) */
  connect(): Promise<void>;
  /** closes every connection this client opened (chain-syncs and mempool monitors included) */
  close(): Promise<void>;

  protocolParameters(): Promise<ProtocolParameters>;
  utxosByAddresses(addresses: readonly string[]): Promise<UtxoEntry[]>;
  utxosByOutputReferences(refs: readonly OutputReference[]): Promise<UtxoEntry[]>;
  /** tip of the ledger state (point; no height) */
  ledgerTip(): Promise<Point | Origin>;
  /** tip of the node's chain */
  networkTip(): Promise<Point | Origin>;
  blockHeight(): Promise<number | Origin>;
  epoch(): Promise<number>;
  eraSummaries(): Promise<EraSummary[]>;
  networkStartTime(): Promise<Date>;
  genesisConfiguration<E extends keyof GenesisByEra>(era: E): Promise<GenesisByEra[E]>;

  /** submits a signed tx; resolves with its id. Not retried automatically (a retry could report 3117). */
  submit(txCborHex: string): Promise<string>;
  /** phase-2 evaluation; `additionalUtxo` resolves inputs not (yet) on chain */
  evaluate(txCborHex: string, additionalUtxo?: readonly UtxoEntry[]): Promise<Evaluation[]>;

  /** follows the chain from the first of `points` found; resumes from the last processed point after disconnects */
  chainSync(points: ReadonlyArray<Point | Origin>, handler: ChainSyncHandler, opts?: ChainSyncOptions): Promise<ChainSyncSubscription>;
  /** a dedicated mempool-monitoring connection (acquire / next / has / size / release) */
  mempool(): Promise<MempoolMonitor>;
  /** which of these transactions the node's mempool holds now (one snapshot) */
  inMempoolAmong(txIds: readonly string[]): Promise<Set<string>>;
  /** reports each new mempool transaction once, re-acquiring snapshots until stopped */
  watchMempool(handler: MempoolWatchHandler, opts?: { pollIntervalMs?: number }): Promise<MempoolWatch>;
}

interface RequestSession {
  opened: OpenedContext;
  query: LedgerStateQueryClient;
  /** UTxO queries, submit and evaluate: each answer parsed once, matched to its request by JSON-RPC id */
  mux: RequestMux;
  /**
   * submit and evaluate, each answer matched to its request by JSON-RPC id. Not @cardano-ogmios/client's
   * TransactionSubmissionClient: it hands each caller the next answer of the method, so concurrent calls answered
   * out of order (a quick refusal overtaking a slow evaluation) got each other's answers.
   */
  submission: {
    submitTransaction(cborHex: string): Promise<string>;
    evaluateTransaction(cborHex: string, additionalUtxo?: UtxoEntry[]): Promise<TransactionSubmission.EvaluationResult[]>;
  };
}

/**
 * Creates a client; nothing connects until the first call (or `connect()`).
 * @throws ChainError CHAIN_ERROR for an invalid url
 */
export function createChainClient(opts: ChainClientOptions): ChainClient {
  const endpoint: Endpoint = endpointOf(opts.url);
  const timeoutMs = opts.requestTimeoutMs ?? 30_000;
  const initialDelayMs = opts.reconnect?.initialDelayMs ?? 100;
  const maxDelayMs = opts.reconnect?.maxDelayMs ?? 5_000;
  const requestAttempts = Math.max(1, opts.reconnect?.maxAttempts ?? 3);
  let session: Promise<RequestSession> | undefined;
  let closed = false;
  const children = new Set<{ close(): Promise<void> }>();

  const openSession = async (): Promise<RequestSession> => {
    const opened = await openContext(endpoint, timeoutMs);
    const query = await createLedgerStateQueryClient(opened.context);
    const mux = requestMux(opened.context);
    const submission: RequestSession["submission"] = {
      submitTransaction: async (cborHex) =>
        (
          (
            await mux.request(
              "submitTransaction",
              { transaction: { cbor: cborHex } },
              (a) => (a.result as { transaction?: { id?: unknown } } | undefined)?.transaction?.id !== undefined,
            )
          ).result as { transaction: { id: string } }
        ).transaction.id,
      evaluateTransaction: async (cborHex, additionalUtxo) =>
        (
          await mux.request(
            "evaluateTransaction",
            { ...(additionalUtxo !== undefined ? { additionalUtxo } : {}), transaction: { cbor: cborHex } },
            (a) => Array.isArray(a.result),
          )
        ).result as TransactionSubmission.EvaluationResult[],
    };
    void opened.closed.then(() => {
      // the next call reconnects
      if (current === opened) session = undefined;
    });
    current = opened;
    return { opened, query, mux, submission };
  };
  let current: OpenedContext | undefined;

  const getSession = async (): Promise<RequestSession> => {
    if (closed) throw new ChainError("CHAIN_UNAVAILABLE", "chain client is closed", undefined, undefined, {}, false);
    if (session) {
      const s = await session.catch(() => undefined);
      if (s && s.opened.isOpen()) return s;
    }
    const opening = openSession();
    session = opening;
    opening.catch(() => {
      if (session === opening) session = undefined;
    });
    return opening;
  };

  const drop = (s: RequestSession | undefined): void => {
    if (!s) return;
    if (current === s.opened) session = undefined;
    s.opened.close();
  };

  /** Runs `fn` on the request connection with a timeout; reconnects and retries idempotent calls. */
  const call = async <T>(operation: string, fn: (s: RequestSession) => Promise<T>, idempotent = true): Promise<T> => {
    let last: ChainError | undefined;
    for (let attempt = 1; attempt <= requestAttempts; attempt++) {
      if (attempt > 1) await delay(backoffMs(attempt - 1, initialDelayMs, maxDelayMs));
      let s: RequestSession | undefined;
      try {
        s = await getSession();
        return await withTimeout(fn(s), timeoutMs, operation);
      } catch (err) {
        last = toChainError(err, operation);
        if (last.type === "CHAIN_TIMEOUT" || last.type === "CHAIN_UNAVAILABLE") drop(s);
        const retry = idempotent && last.type === "CHAIN_UNAVAILABLE" && !closed;
        if (!retry) throw last;
      }
    }
    throw last as ChainError;
  };

  const client: ChainClient = {
    url: opts.url,
    async connect() {
      await call("connect", async () => undefined);
    },
    async close() {
      closed = true;
      await Promise.all([...children].map((c) => c.close().catch(() => undefined)));
      const s = session ? await session.catch(() => undefined) : undefined;
      session = undefined;
      if (s && s.opened.isOpen()) {
        s.opened.close();
        await s.opened.closed;
      }
    },
    protocolParameters: () => call("protocolParameters", (s) => s.query.protocolParameters()),
    // an empty filter would ask Ogmios for the whole UTxO set
    utxosByAddresses: async (addresses) =>
      addresses.length === 0 ? [] : call("utxo", (s) => utxoQuery(s.mux, { addresses: [...addresses] })),
    utxosByOutputReferences: async (refs) =>
      refs.length === 0
        ? []
        : call("utxo", (s) => utxoQuery(s.mux, { outputReferences: refs.map((r) => ({ transaction: { id: r.txHash }, index: r.index })) })),
    ledgerTip: () => call("ledgerTip", (s) => s.query.ledgerTip()),
    networkTip: () => call("networkTip", (s) => s.query.networkTip()),
    blockHeight: () => call("blockHeight", (s) => s.query.networkBlockHeight()),
    epoch: () => call("epoch", (s) => s.query.epoch()),
    eraSummaries: () => call("eraSummaries", (s) => s.query.eraSummaries()),
    networkStartTime: () => call("networkStartTime", (s) => s.query.networkStartTime()),
    genesisConfiguration: <E extends keyof GenesisByEra>(era: E) =>
      call("genesisConfiguration", (s) => s.query.genesisConfiguration(era as never) as Promise<GenesisByEra[E]>),
    submit: (txCborHex) => call("submitTransaction", (s) => s.submission.submitTransaction(txCborHex), false),
    evaluate: (txCborHex, additionalUtxo) =>
      call("evaluateTransaction", async (s) => {
        const results = await s.submission.evaluateTransaction(txCborHex, additionalUtxo ? [...additionalUtxo] : undefined);
        return results.map((r) => ({ validator: { purpose: r.validator.purpose, index: Number(r.validator.index) }, budget: r.budget }));
      }),
    async chainSync(points, handler, syncOpts = {}) {
      if (closed) throw new ChainError("CHAIN_UNAVAILABLE", "chain client is closed", undefined, undefined, {}, false);
      const sub = await startChainSync(
        { endpoint, timeoutMs, initialDelayMs, maxDelayMs, maxAttempts: opts.reconnect?.maxAttempts ?? Infinity },
        points,
        handler,
        syncOpts,
      );
      children.add(sub);
      void sub.done.catch(() => undefined).finally(() => children.delete(sub));
      return sub;
    },
    async mempool() {
      if (closed) throw new ChainError("CHAIN_UNAVAILABLE", "chain client is closed", undefined, undefined, {}, false);
      const m = await openMempool(endpoint, timeoutMs);
      children.add(m);
      void m.closed.finally(() => children.delete(m));
      return m;
    },
    async inMempoolAmong(txIds) {
      if (txIds.length === 0) return new Set<string>();
      const m = await this.mempool();
      try {
        await m.acquire();
        const held = new Set<string>();
        for (const id of txIds) if (await m.hasTransaction(id)) held.add(id);
        return held;
      } finally {
        await m.close();
      }
    },
    async watchMempool(handler, watchOpts = {}) {
      if (closed) throw new ChainError("CHAIN_UNAVAILABLE", "chain client is closed", undefined, undefined, {}, false);
      const w = await watchMempool(endpoint, timeoutMs, handler, {
        pollIntervalMs: watchOpts.pollIntervalMs ?? 1_000,
        initialDelayMs,
        maxDelayMs,
      });
      children.add(w);
      void w.done.catch(() => undefined).finally(() => children.delete(w));
      return w;
    },
  };
  return client;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** `queryLedgerState/utxo` (the library's success test for a query: an answer of the method). */
const UTXO_METHOD = "queryLedgerState/utxo";
async function utxoQuery(mux: RequestMux, params: unknown): Promise<UtxoEntry[]> {
  return (await mux.request(UTXO_METHOD, params, (answer) => answer.method === UTXO_METHOD)).result as UtxoEntry[];
}
