/**
 * The faucet's view of its own transactions still in flight, so consecutive claims neither spend the same UTxO twice
 * nor wait for a block: inputs of a submitted transaction are hidden from coin selection, and its outputs back to
 * the faucet are offered instead (chaining). An entry ends once none of its inputs is on chain any more (the
 * transaction was included) or after `ttlMs` (it was dropped).
 */
import { CSL } from "../csl/lib";
import { outputToOgmios, type OgmiosUtxo } from "../csl/utxo";

interface Pending {
  inputs: Set<string>;
  outputs: OgmiosUtxo[];
  expiresAt: number;
}

const refOf = (u: OgmiosUtxo) => `${u.transaction.id}#${u.index}`;

export class PendingSpends {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly ttlMs = 10 * 60_000) {}

  /** What coin selection may use, given the faucet's UTxOs on chain now. */
  available(onChain: readonly OgmiosUtxo[], now: number): OgmiosUtxo[] {
    const chainRefs = new Set(onChain.map(refOf));
    for (const [id, p] of this.pending) {
      if (p.expiresAt < now || ![...p.inputs].some((r) => chainRefs.has(r))) this.pending.delete(id);
    }
    const spent = new Set([...this.pending.values()].flatMap((p) => [...p.inputs]));
    const extra = [...this.pending.values()].flatMap((p) => p.outputs).filter((u) => !chainRefs.has(refOf(u)) && !spent.has(refOf(u)));
    return [...onChain.filter((u) => !spent.has(refOf(u))), ...extra];
  }

  /** Records a submitted transaction: its inputs are spent, its outputs to `ownAddress` are usable. */
  add(txCborHex: string, txId: string, ownAddress: string, now: number): void {
    const body = CSL.Transaction.from_hex(txCborHex).body();
    const inputs = new Set<string>();
    for (let i = 0; i < body.inputs().len(); i++) {
      const input = body.inputs().get(i);
      inputs.add(`${input.transaction_id().to_hex()}#${input.index()}`);
    }
    const outputs: OgmiosUtxo[] = [];
    for (let i = 0; i < body.outputs().len(); i++) {
      const out = outputToOgmios(body.outputs().get(i));
      if (out.address === ownAddress) outputs.push({ transaction: { id: txId }, index: i, ...out } as OgmiosUtxo);
    }
    this.pending.set(txId, { inputs, outputs, expiresAt: now + this.ttlMs });
  }

  size(): number {
    return this.pending.size;
  }
}
