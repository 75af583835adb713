/**
 * Pays test funds (reference-study §7.6): FAUCET_UTXO_COUNT outputs of FAUCET_UTXO_AMOUNT_LOVELACE to the claimer,
 * from the faucet wallet, signed and submitted by the service; at most one claim per payment credential per
 * cooldown (recorded in the store, so it holds across restarts). Claims are serialised in this process, so two
 * claims never pick the same UTxO; in-flight transactions are chained (pending-spends.ts).
 */
import type { ProtocolParameters } from "@cardano-ogmios/schema";
import { buildPayment } from "../csl/build-payment";
import type { OgmiosUtxo } from "../csl/utxo";
import { DomainError } from "../domain/errors";
import type { Collection, Store, StoredDocument } from "../store";
import type { Wallet } from "../wallet";
import { PendingSpends } from "./pending-spends";

export interface FaucetChain {
  protocolParameters(): Promise<ProtocolParameters>;
  utxosByAddresses(addresses: readonly string[]): Promise<OgmiosUtxo[]>;
  submit(txCborHex: string): Promise<string>;
}

export interface FaucetOptions {
  wallet: Wallet;
  chain: () => Promise<FaucetChain>;
  utxoCount: number;
  utxoLovelace: bigint;
  cooldownMs: number;
}

type ClaimDoc = StoredDocument & { lastClaimAt: number; txHash: string };

export class FaucetDispenser {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly pending = new PendingSpends();

  private constructor(
    private readonly claims: Collection<ClaimDoc>,
    private readonly opts: FaucetOptions,
  ) {}

  static open(store: Store, opts: FaucetOptions): FaucetDispenser {
    return new FaucetDispenser(store.collection<ClaimDoc>("faucet_claims"), opts);
  }

  get address(): string {
    return this.opts.wallet.address;
  }

  /** Milliseconds until the credential may claim again (0 = now). */
  async cooldownLeft(credential: string, now: number): Promise<number> {
    const last = await this.claims.findOne({ _id: credential });
    return last ? Math.max(0, last.lastClaimAt + this.opts.cooldownMs - now) : 0;
  }

  /** @throws DomainError FAUCET_COOLDOWN (429), FAUCET_EMPTY (503), FAUCET_SUBMIT_FAILED (502) */
  dispense(address: string, credential: string, now: number): Promise<{ txHash: string; lovelace: bigint }> {
    const run = async () => {
      const left = await this.cooldownLeft(credential, now);
      if (left > 0) {
        throw new DomainError("FAUCET_COOLDOWN", `This wallet was funded recently; try again in ${Math.ceil(left / 1000)} s.`, { status: 429, retryAfterSeconds: Math.ceil(left / 1000) });
      }
      const chain = await this.opts.chain();
      const [params, own] = await Promise.all([chain.protocolParameters(), chain.utxosByAddresses([this.address])]);
      const outputs = Array.from({ length: this.opts.utxoCount }, () => ({ address, lovelace: this.opts.utxoLovelace }));
      let built: { cborHex: string; txId: string };
      try {
        built = buildPayment({ protocolParameters: params, utxos: this.pending.available(own, now), changeAddress: this.address, outputs });
      } catch (err) {
        if ((err as { type?: unknown }).type === "INSUFFICIENT_FUNDS") throw new DomainError("FAUCET_EMPTY", "The faucet has not enough funds right now.", { status: 503 });
        throw err;
      }
      const signed = this.opts.wallet.signTxFull(built.cborHex);
      try {
        await chain.submit(signed);
      } catch (err) {
        throw new DomainError("FAUCET_SUBMIT_FAILED", `The faucet transaction was refused: ${err instanceof Error ? err.message : String(err)}`, { status: 502 });
      }
      this.pending.add(signed, built.txId, this.address, now);
      await this.claims.updateOne({ _id: credential }, { $set: { lastClaimAt: now, txHash: built.txId } }, { upsert: true });
      return { txHash: built.txId, lovelace: this.opts.utxoLovelace * BigInt(this.opts.utxoCount) };
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }
}
