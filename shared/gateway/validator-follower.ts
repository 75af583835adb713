/**
 * Keeps the gateway's memory of verify answers (validator-cache.ts) true: it reads the indexer's fact log through
 * the broker when a chain event says a block came, every few seconds besides (a lost event, or none yet), and once
 * the indexer appears. Reading needs an indexer somewhere on the mesh; without one nothing is read.
 */
import type { ServiceBroker } from "moleculer";
import type { FactRecord } from "../indexer/fact-log";
import { ValidatorCache } from "./validator-cache";

/** Bounds of the memory besides its byte budget. */
const VALIDATOR_MAX_HASHES = 200_000;
const VALIDATOR_MAX_CHANGES = 200_000;

/** How often the fact log is read without a chain notification. */
const FOLLOW_INTERVAL_MS = 5000;

export class ValidatorFollower {
  readonly validators: ValidatorCache;
  private broker: ServiceBroker | undefined;
  private timer: NodeJS.Timeout | undefined;

  /** @param answerBytes the byte budget of remembered answers (VERIFY_CACHE_MB); 0 remembers validators only */
  constructor(answerBytes: number) {
    this.validators = new ValidatorCache(
      {
        head: async () => (await this.broker!.call<{ lastSeq: number }, Record<string, never>>("indexer.status", {})).lastSeq,
        after: (cursor, limit) =>
          this.broker!.call<FactRecord[], { cursor: number; limit: number }>("indexer.factsAfter", { cursor, limit }),
      },
      { maxHashes: VALIDATOR_MAX_HASHES, maxChanges: VALIDATOR_MAX_CHANGES, maxBodyBytes: answerBytes },
    );
  }

  /** The broker to read through (the gateway's, once it is created). */
  attach(broker: ServiceBroker): void {
    this.broker = broker;
  }

  /** Reads the log now, when an indexer runs; never throws. */
  follow(): void {
    const registry = this.broker?.registry as unknown as { hasService(name: string): boolean } | undefined;
    if (registry?.hasService("indexer")) this.validators.catchUp().catch(() => undefined);
  }

  /** A `chain.block` or `chain.rollback` event: the tip's height and the log's head, then a read. */
  noteChainEvent(params: { height?: unknown; lastSeq?: unknown } | undefined): void {
    const { height, lastSeq } = params ?? {};
    this.validators.noteBlock(typeof height === "number" ? height : undefined, typeof lastSeq === "number" ? lastSeq : undefined);
    this.follow();
  }

  /** Reads every few seconds from now on, and as soon as the indexer appears (`indexerAvailable` resolves). */
  start(indexerAvailable: () => Promise<void>): void {
    this.timer = setInterval(() => this.follow(), FOLLOW_INTERVAL_MS);
    this.timer.unref();
    void indexerAvailable().then(
      () => this.follow(),
      () => undefined,
    );
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
