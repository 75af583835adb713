/**
 * Which state scripts the indexer trusts, and when: a certificate counts only when it rides on a withdrawal from
 * the state script the proxy pointer named at that slot. The configured deployment's script is trusted from the
 * start; each pointer change closes the previous script's period and opens the new one. A script the library
 * merely holds, or one the pointer left, is not trusted for later slots (docs/protocol.md#indexer-decoding).
 */
interface TrustPeriod {
  hash: string;
  from: number;
  /** last slot the script is trusted for (inclusive: the block of the change may carry both); null while current */
  until: number | null;
}

export class StateScriptTrust {
  private periods: TrustPeriod[] = [];

  constructor(private readonly initial: readonly string[]) {
    this.reset();
  }

  /** The pointer names `hash` from `slot` on. */
  pointTo(hash: string, slot: number): void {
    const current = this.periods.at(-1);
    if (current?.hash === hash && current.until === null) return;
    if (current && current.until === null) current.until = slot;
    this.periods.push({ hash, from: slot, until: null });
  }

  /** Forgets every change after `slot` (a rollback) and reopens the period that was current then. */
  rollbackTo(slot: number): void {
    // the configured scripts (from slot 0) survive even a rollback to origin (-1)
    this.periods = this.periods.filter((p) => p.from <= Math.max(slot, 0));
    const last = this.periods.at(-1);
    if (last && last.until !== null && last.until >= slot) last.until = null;
  }

  /** Back to the configured scripts only (before replaying the pointer's history). */
  reset(): void {
    this.periods = this.initial.map((hash) => ({ hash, from: 0, until: null }));
  }

  /** The scripts trusted at `slot`. */
  trustedAt(slot: number): Set<string> {
    return new Set(this.periods.filter((p) => p.from <= slot && (p.until === null || slot <= p.until)).map((p) => p.hash));
  }

  /** Every script ever trusted (a cheap relevance filter; decoding asks `trustedAt`). */
  everTrusted(): Set<string> {
    return new Set(this.periods.map((p) => p.hash));
  }
}
