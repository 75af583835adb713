/**
 * The chain the validator tests run on: the embedded devnet (phase 1 + phase 2 through its rule engine) with an
 * injected clock, CSL-built transactions from shared/csl, and wallets from shared/wallet.
 * Everything a test needs to say "this transaction is accepted" or "this one fails phase 2 because of rule X".
 */
import { expect } from "chai";
import { Devnet, DevnetError, type OgmiosUtxo } from "../../../shared/devnet";
import { buildTx, type TxSpec } from "../../../shared/csl/build-tx";
import { buildWithEvaluation } from "../../../shared/csl/build-with-evaluation";
import { Wallet, generateMnemonic } from "../../../shared/wallet";
import { txIdOf } from "../../../shared/csl/witnesses";

export type Spec = Omit<TxSpec, "protocolParameters">;

/** Ogmios code for "a script failed" at submission (phase 2). */
export const PHASE_TWO_FAILURE = 3136;

export interface Budget {
  readonly purpose: string;
  readonly memory: number;
  readonly cpu: number;
}

export class TestChain {
  private constructor(
    readonly devnet: Devnet,
    private readonly clock: { nowMs: number },
  ) {}

  /** A devnet whose genesis funds `wallets` with `lovelace` each; the clock only moves when a test moves it. */
  static async create(wallets: readonly Wallet[], lovelace = 100_000_000_000n): Promise<TestChain> {
    const clock = { nowMs: 1_800_000_000_000 };
    const devnet = await Devnet.create({
      genesis: wallets.map((w) => ({ address: w.address, lovelace })),
      clock: () => clock.nowMs,
    });
    return new TestChain(devnet, clock);
  }

  now(): number {
    return this.clock.nowMs;
  }

  /** Moves the clock forward by whole slots. */
  advanceSlots(slots: number): void {
    this.clock.nowMs += slots * 1000;
  }

  currentSlot(): number {
    return this.devnet.currentSlot();
  }

  /** POSIX ms at which `slot` starts: what the ledger gives scripts for a validity bound at that slot. */
  slotToPosixMs(slot: number): number {
    return this.devnet.systemStartMs + slot * 1000;
  }

  utxosAt(address: string): OgmiosUtxo[] {
    return this.devnet.queryUtxo({ addresses: [address] });
  }

  private withParameters(spec: Spec): TxSpec {
    return { ...spec, protocolParameters: this.devnet.protocolParameters() as unknown as TxSpec["protocolParameters"] };
  }

  /** Builds with real ex-units (evaluated by the devnet) and signs with every signer. */
  async buildSigned(spec: Spec, signers: readonly Wallet[]): Promise<{ cborHex: string; txId: string }> {
    const params = this.withParameters(spec);
    const built = await buildWithEvaluation(params, (hex) => this.devnet.evaluateTransaction(hex));
    const fixed = built.cborHex;
    return { cborHex: signAll(fixed, signers), txId: txIdOf(fixed) };
  }

  /** Builds, submits and confirms in a block; returns the tx id and the budgets the devnet evaluated. */
  async submit(spec: Spec, signers: readonly Wallet[]): Promise<{ txId: string; budgets: Budget[]; size: number }> {
    const { cborHex, txId } = await this.buildSigned(spec, signers);
    const budgets = (await this.devnet.evaluateTransaction(cborHex)).map((r) => ({
      purpose: `${r.validator.purpose}:${r.validator.index}`,
      memory: r.budget.memory,
      cpu: r.budget.cpu,
    }));
    await this.devnet.submitTransaction(cborHex);
    this.devnet.produceBlock();
    return { txId, budgets, size: cborHex.length / 2 };
  }

  /**
   * Builds `spec` with placeholder ex-units (no evaluation, which would refuse it), signs, submits and expects
   * the devnet to reject it in phase 2; with a trace build, also that the named rule is what failed.
   */
  async expectPhase2Rejection(spec: Spec, signers: readonly Wallet[], rule?: string): Promise<DevnetError> {
    const params = this.withParameters(spec);
    const built = buildTx(params);
    const signed = signAll(built.cborHex, signers);
    let caught: unknown;
    try {
      await this.devnet.submitTransaction(signed);
    } catch (err) {
      caught = err;
    }
    expect(caught, "the devnet accepted a transaction that must fail phase 2").to.be.instanceOf(DevnetError);
    const err = caught as DevnetError;
    const reason = String((err.data as { mismatchReason?: string } | undefined)?.mismatchReason ?? "");
    expect(err.code, `expected a phase-2 failure, got ${err.code} ${err.message} ${reason}`).to.equal(PHASE_TWO_FAILURE);
    if (rule !== undefined) expect(reason, "the failing rule").to.include(rule);
    return err;
  }
}

export function signAll(cborHex: string, signers: readonly Wallet[]): string {
  return signers.reduce((tx, w) => w.signTxFull(tx), cborHex);
}

export function newWallet(): Wallet {
  return Wallet.fromMnemonic(generateMnemonic(), { networkId: 0 });
}
