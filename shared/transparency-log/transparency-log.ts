/**
 * One deployment's transparency log (docs/transparency-log.md): its store, its sequencer, its lookups (hash → index)
 * and what it serves — the latest signed checkpoint, tiles and entry bundles (c2sp.org/tlog-tiles), consistency
 * proofs (RFC 9162 §2.1.4) between any two sizes it has reached.
 */
import { DomainError, notFound } from "../domain/errors";
import { createLeaseTable, type Store } from "../store";
import { hashesAtLevel, parseTilePath, TILE_WIDTH } from "../tlog/tiles";
import type { LogKey } from "./log-key";
import { LogLookup } from "./log-lookup";
import { LogStore } from "./log-store";
import { NONCE_BYTES } from "./log-entries";
import { consistencyBetween } from "./log-tree";
import { Sequencer, type LogSource, type RoundOutcome, type SequencerSettings } from "./sequencer";
import { Witnessing, type WitnessingOptions } from "./witnessing";

/** The most entries one round appends: a round of this many takes well under a second. */
const MAX_ENTRIES_PER_ROUND = 100_000;

export interface LogInfo {
  origin: string;
  verifierKey: string;
  size: number;
  /** the latest signed checkpoint note, with its witnesses' cosignatures once they came */
  checkpoint: string | null;
}

export class TransparencyLog {
  private constructor(
    readonly store: LogStore,
    readonly sequencer: Sequencer,
    readonly lookup: LogLookup,
    private readonly key: LogKey,
    private readonly origin: string,
  ) {}

  static async open(opts: {
    store: Store;
    source: LogSource;
    key: LogKey;
    settings: Omit<SequencerSettings, "maxEntriesPerRound">;
    now: () => number;
    witnessing: WitnessingOptions;
    onRound?: (outcome: RoundOutcome) => void;
  }): Promise<TransparencyLog> {
    const log = await LogStore.open(opts.store);
    const lease = await createLeaseTable(opts.store.collection("tlog_lease"), opts.now);
    const settings = { ...opts.settings, maxEntriesPerRound: MAX_ENTRIES_PER_ROUND };
    const witnessing = new Witnessing(log, opts.witnessing);
    const onRound = (outcome: RoundOutcome): void => {
      // cosignatures are asked beside the sequencer, never in its way
      if (outcome.kind === "integrated") void witnessing.checkpointSigned();
      opts.onRound?.(outcome);
    };
    const sequencer = new Sequencer(log, opts.source, lease, opts.key.signer, settings, opts.now, onRound);
    return new TransparencyLog(log, sequencer, await LogLookup.open(opts.store, log), opts.key, opts.settings.origin);
  }

  async info(): Promise<LogInfo> {
    const served = await this.store.servedCheckpoint();
    return { origin: this.origin, verifierKey: this.key.verifierKey, size: served?.size ?? 0, checkpoint: served?.note ?? null };
  }

  /** The latest checkpoint for the calendar to anchor on Cardano: origin, size, root (hex) and the note as served. */
  async anchorableCheckpoint(): Promise<{ origin: string; size: number; root: string; note: string } | undefined> {
    const [state, served] = await Promise.all([this.store.latest(), this.store.servedCheckpoint()]);
    if (state === undefined || served === undefined || served.size !== state.size) return undefined;
    return { origin: this.origin, size: state.size, root: Buffer.from(state.root, "base64").toString("hex"), note: served.note };
  }

  /** The submitted hash of entry `index` (in a signed checkpoint). */
  async hashAt(index: number): Promise<Buffer> {
    const [record] = await this.store.recordsFrom(index, 1);
    if (record === undefined) throw new Error(`The log's record ${index} is not stored.`);
    return record.subarray(NONCE_BYTES);
  }

  /** The latest checkpoint note as served (with cosignatures once they came). */
  async checkpoint(): Promise<string | undefined> {
    return (await this.store.servedCheckpoint())?.note;
  }

  /**
   * A tile or entry bundle by its path (`tile/…`), or a DomainError: BAD_REQUEST for a malformed path, NOT_FOUND
   * for one beyond the latest checkpoint.
   */
  async tile(path: string): Promise<Buffer> {
    const parsed = parseTilePath(path);
    if (!parsed.ok) throw new DomainError("BAD_REQUEST", parsed.error);
    const tile = parsed.value;
    const size = (await this.store.latest())?.size ?? 0;
    // the tile exists, with at least this width, in the latest tree
    if (tile.index * TILE_WIDTH + tile.width > hashesAtLevel(size, tile.level === "entries" ? 0 : tile.level))
      throw notFound(`The log (size ${size}) has no ${path}.`);
    const bytes = await this.store.tile(tile);
    if (bytes === undefined) throw notFound(`The log has no ${path} yet.`);
    return bytes;
  }

  /** A consistency proof from size `from` to size `to` (both at most the latest size; 0 < from ≤ to). */
  async consistency(from: number, to: number): Promise<Uint8Array[]> {
    const size = (await this.store.latest())?.size ?? 0;
    if (!(from > 0 && from <= to && to <= size))
      throw new DomainError(
        "BAD_REQUEST",
        `A consistency proof needs 0 < from ≤ to ≤ ${size} (the log's size); got from=${from}, to=${to}.`,
      );
    return consistencyBetween(this.store, from, to);
  }
}
