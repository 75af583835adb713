/**
 * The log asks its witnesses (c2sp.org/tlog-witness) to cosign each new checkpoint and serves the checkpoint with
 * their cosignatures (docs/transparency-log.md#witnesses). It runs beside the sequencer, never in its way: one run at
 * a time, a run always takes the latest checkpoint (checkpoints signed meanwhile are skipped, as the spec allows),
 * each witness is asked with a consistency proof from the size it last cosigned (learnt from its 409 when unknown,
 * e.g. after a restart), within a timeout. A witness that is down or refuses costs this run nothing but its line.
 */
import { CoalescedRun } from "../domain/coalesced-run";
import type { LogStore } from "./log-store";
import { consistencyBetween } from "./log-tree";
import { requestCosignature, type CosignatureResult, type WitnessEndpoint } from "./witness-client";

export interface WitnessingOptions {
  witnesses: readonly WitnessEndpoint[];
  timeoutMs: number;
  /** told each witness's failure (for the log) */
  onFailure?: (witness: WitnessEndpoint, error: string) => void;
}

export class Witnessing {
  /** the size each witness last cosigned, as far as this process knows (0: unknown, the witness's 409 tells) */
  private readonly cosigned = new Map<WitnessEndpoint, number>();
  private readonly run = new CoalescedRun<void>((rounds) => rounds(() => this.witnessLatest()));

  constructor(
    private readonly log: LogStore,
    private readonly opts: WitnessingOptions,
  ) {}

  /** Asks for cosignatures of the latest checkpoint (joins a run in progress, which then runs once more). */
  checkpointSigned(): Promise<void> {
    return this.opts.witnesses.length === 0 ? Promise.resolve() : this.run.start();
  }

  private async witnessLatest(): Promise<void> {
    const state = await this.log.latest();
    if (state === undefined || state.size === 0) return;
    const lines = await Promise.all(this.opts.witnesses.map((w) => this.cosignatureOf(w, state.size, state.checkpoint)));
    const found = lines.flat();
    if (found.length > 0) await this.log.saveWitnessed(state.size, state.checkpoint + found.join(""));
  }

  /** One witness's cosignature lines for the checkpoint of `size`, or none. */
  private async cosignatureOf(witness: WitnessEndpoint, size: number, checkpoint: string): Promise<string[]> {
    let answer = await this.ask(witness, this.cosigned.get(witness) ?? 0, size, checkpoint);
    // the witness knows a size this process did not: once more, from that size
    if (!answer.ok && "conflictSize" in answer && answer.conflictSize <= size)
      answer = await this.ask(witness, answer.conflictSize, size, checkpoint);
    if (answer.ok) {
      this.cosigned.set(witness, size);
      return answer.lines;
    }
    this.opts.onFailure?.(witness, "conflictSize" in answer ? `it has cosigned size ${answer.conflictSize} already` : answer.error);
    return [];
  }

  private async ask(witness: WitnessEndpoint, from: number, size: number, checkpoint: string): Promise<CosignatureResult> {
    const consistencyProof = from === 0 || from === size ? [] : await consistencyBetween(this.log, from, size);
    return requestCosignature(
      witness,
      { oldSize: from, consistencyProof, signedCheckpoint: checkpoint },
      { timeoutMs: this.opts.timeoutMs },
    );
  }
}
