/**
 * A deployed protocol on a fresh devnet, reached through real transactions: init (pointer mint), library deploy
 * (reference scripts), bootstrap mint, state fork. Each `*Spec` builds the VALID transaction of one action; tests
 * pass overrides to break exactly one condition.
 */
import type { OgmiosUtxo } from "../../../shared/devnet";
import type { OutputSpec } from "../../../shared/csl/outputs";
import type { MintSpec, PlutusScriptWitness } from "../../../shared/csl/build-tx";
import type { Wallet } from "../../../shared/wallet";
import {
  type BootstrapDatum,
  type Data,
  type OnchainCertificate,
  type ProtocolScripts,
  type StateDatum,
  type StatePurpose,
  TRACE_BLUEPRINT_PATH,
  DEFAULT_BLUEPRINT_PATH,
  certificateDataHash,
  constr,
  dataFromCborHex,
  dataToCborHex,
  decodeBootstrapDatum,
  decodeStateDatum,
  deriveProtocolScripts,
  encodeBootstrapDatum,
  encodeProxyDatum,
  encodeProxyRedeemer,
  encodeStateDatum,
  encodeStateRedeemer,
  loadBlueprint,
  makeCertificate,
  stateIdOf,
} from "../../../shared/protocol";
import { forkedStateDatum } from "../../../shared/issuance/fork-state";
import { newWallet, TestChain, type Budget, type Spec } from "./test-chain";
import { stakeCertificateTx } from "./stake-certificate";

export type BuildKind = "shipped" | "trace";
/** Rule suites run against both builds: the trace build proves WHICH rule failed, the shipped one that it fails. */
/** ONCHAIN_BUILDS=trace (or shipped) narrows the run while developing validators. */
export const BUILDS: readonly BuildKind[] = (["trace", "shipped"] as const).filter(
  (k) => process.env["ONCHAIN_BUILDS"] === undefined || process.env["ONCHAIN_BUILDS"].split(",").includes(k),
);

export interface Actors {
  /** pointer owner, library and bootstrap administrator */
  readonly service: Wallet;
  readonly alice: Wallet;
  readonly bob: Wallet;
  readonly issuer: Wallet;
  readonly feeA: Wallet;
  readonly feeB: Wallet;
}

export interface StateUtxo {
  readonly utxo: OgmiosUtxo;
  readonly datum: StateDatum;
}

export const BOOTSTRAP_NAME_HEX = Buffer.from("default", "utf8").toString("hex");

/** A bootstrap with a fee due at the fork (limit 12 % interval 3 == 0) and at every third update. */
export function defaultBootstrap(actors: Actors, over: Partial<BootstrapDatum> = {}): BootstrapDatum {
  return {
    allowedCredentials: [],
    tokenName: BOOTSTRAP_NAME_HEX,
    fee: 4_000_000n,
    feeInterval: 3n,
    feeReceivers: [actors.feeA.paymentKeyHash, actors.feeB.paymentKeyHash],
    ttl: 1_900_000_000_000n,
    transactionLimit: 12n,
    batchSize: 10n,
    ...over,
  };
}

export function certificatesFor(issuer: Wallet, count: number, metadataBytes = 80): OnchainCertificate[] {
  return Array.from({ length: count }, (_, i) =>
    makeCertificate({
      hash: Buffer.alloc(32, i + 1).toString("hex"),
      algorithm: "SHA-256",
      issuer: issuer.paymentKeyHash,
      metadata: JSON.stringify({ n: i, pad: "x".repeat(Math.max(0, metadataBytes - 16)) }).slice(0, metadataBytes),
    }),
  );
}

const unitDatum = dataToCborHex(constr(0));

export class ProtocolFixture {
  pointer!: OgmiosUtxo;
  proxyRef!: OgmiosUtxo;
  stateRef!: OgmiosUtxo;

  private constructor(
    readonly chain: TestChain,
    readonly actors: Actors,
    readonly scripts: ProtocolScripts,
    readonly oneShot: OgmiosUtxo,
    readonly kind: BuildKind,
  ) {}

  /** Fresh devnet, scripts derived from the chosen blueprint, pointer minted and reference scripts deployed. */
  static async create(kind: BuildKind = "shipped", opts: { init?: boolean } = {}): Promise<ProtocolFixture> {
    const actors: Actors = {
      service: newWallet(),
      alice: newWallet(),
      bob: newWallet(),
      issuer: newWallet(),
      feeA: newWallet(),
      feeB: newWallet(),
    };
    const chain = await TestChain.create(Object.values(actors));
    const oneShot = chain.utxosAt(actors.service.address)[0]!;
    const blueprint = loadBlueprint(kind === "trace" ? TRACE_BLUEPRINT_PATH : DEFAULT_BLUEPRINT_PATH);
    const scripts = deriveProtocolScripts(blueprint, {
      proxyOneShot: { txHash: oneShot.transaction.id, index: oneShot.index },
      bootstrapAdministrators: [actors.service.paymentKeyHash],
      libraryAdministrator: actors.service.paymentKeyHash,
      networkId: 0,
    });
    const f = new ProtocolFixture(chain, actors, scripts, oneShot, kind);
    if (opts.init === false) return f;
    await chain.submit(f.initSpec(), [actors.service]);
    f.pointer = f.findPointer();
    await f.deployLibrary();
    await chain.devnet.submitTransaction(await stakeCertificateTx(chain, "register", scripts.state.hash, f.stateRef, actors.service));
    chain.devnet.produceBlock();
    return f;
  }

  // ---- lookups --------------------------------------------------------------------------------------------------

  get policy(): string {
    return this.scripts.proxy.policyId;
  }

  /** The wallets behind key hashes (to add their witnesses for required signers). */
  walletsFor(keyHashes: readonly string[]): Wallet[] {
    const all = Object.values(this.actors) as Wallet[];
    return keyHashes.map((h) => all.find((w) => w.paymentKeyHash === h)).filter((w): w is Wallet => w !== undefined);
  }

  /** The payer plus the wallet of every required signer of `spec`. */
  signersOf(spec: Spec, payer: Wallet): Wallet[] {
    return [...new Set([payer, ...this.walletsFor(spec.requiredSigners ?? [])])];
  }

  /** Submits `spec` signed by the payer and its required signers; expects acceptance. */
  async accept(spec: Spec, payer: Wallet) {
    return this.chain.submit(spec, this.signersOf(spec, payer));
  }

  /** Expects a phase-2 rejection; with the trace build also that `rule` is the failing rule. */
  async reject(spec: Spec, payer: Wallet, rule: string) {
    return this.chain.expectPhase2Rejection(spec, this.signersOf(spec, payer), this.kind === "trace" ? rule : undefined);
  }

  utxosOf(w: Wallet): OgmiosUtxo[] {
    return this.chain.utxosAt(w.address);
  }

  proxyUtxos(): OgmiosUtxo[] {
    return this.chain.utxosAt(this.scripts.proxy.address);
  }

  holds(u: OgmiosUtxo, name: string): boolean {
    const assets = (u.value as Record<string, Record<string, bigint>>)[this.policy];
    return assets !== undefined && (assets[name] ?? 0n) > 0n;
  }

  findPointer(): OgmiosUtxo {
    const u = this.proxyUtxos().find((x) => this.holds(x, this.scripts.pointerTokenName));
    if (!u) throw new Error("pointer UTxO not found");
    return u;
  }

  findBootstrap(name = BOOTSTRAP_NAME_HEX): { utxo: OgmiosUtxo; datum: BootstrapDatum } {
    const utxo = this.proxyUtxos().find((x) => this.holds(x, name));
    if (!utxo || !utxo.datum) throw new Error(`bootstrap ${name} not found`);
    return { utxo, datum: decodeBootstrapDatum(dataFromCborHex(utxo.datum)) };
  }

  /** Ids of the states at the proxy address owned by `owner`. */
  findStateIdsOf(owner: Wallet): string[] {
    return this.proxyUtxos().flatMap((u) => {
      if (!u.datum) return [];
      try {
        const d = decodeStateDatum(dataFromCborHex(u.datum));
        return d.owner === owner.paymentKeyHash ? [d.id] : [];
      } catch {
        return [];
      }
    });
  }

  findState(id: string): StateUtxo {
    const utxo = this.proxyUtxos().find((x) => this.holds(x, id));
    if (!utxo || !utxo.datum) throw new Error(`state ${id} not found`);
    return { utxo, datum: decodeStateDatum(dataFromCborHex(utxo.datum)) };
  }

  // ---- script witnesses -----------------------------------------------------------------------------------------

  proxyWitness(): PlutusScriptWitness {
    return this.proxyRef ? { language: "plutus:v3", referenceUtxo: this.proxyRef } : { language: "plutus:v3", cbor: this.scripts.proxy.code };
  }

  stateWitness(): PlutusScriptWitness {
    return { language: "plutus:v3", referenceUtxo: this.stateRef };
  }

  stateWithdrawal(purpose: StatePurpose, certificates: readonly OnchainCertificate[]): NonNullable<Spec["withdrawals"]>[number] {
    return {
      rewardAddress: this.scripts.state.rewardAddress,
      lovelace: 0n,
      script: this.stateWitness(),
      redeemer: dataToCborHex(encodeStateRedeemer({ purpose, certificates })),
    };
  }

  proxyMint(assets: Record<string, bigint>, redeemer: "USER" | "ADMIN" = "USER"): MintSpec {
    return { policy: this.proxyWitness(), redeemer: dataToCborHex(encodeProxyRedeemer(redeemer)), assets };
  }

  tokenOutput(name: string, datum: Data, over: Partial<OutputSpec> = {}): OutputSpec {
    return {
      address: this.scripts.proxy.address,
      assets: { [this.policy]: { [name]: 1n } },
      inlineDatum: dataToCborHex(datum),
      ...over,
    };
  }

  // ---- protocol set-up ------------------------------------------------------------------------------------------

  initSpec(over: { ownerInDatum?: string; signers?: string[]; outputs?: OutputSpec[]; assets?: Record<string, bigint> } = {}): Spec {
    const service = this.actors.service;
    const datum = encodeProxyDatum({ scriptPointer: this.scripts.state.hash, scriptOwner: over.ownerInDatum ?? service.paymentKeyHash });
    return {
      utxos: this.utxosOf(service),
      keyInputs: [this.oneShot],
      changeAddress: service.address,
      mints: [this.proxyMint(over.assets ?? { [this.scripts.pointerTokenName]: 1n }, "ADMIN")],
      outputs: over.outputs ?? [this.tokenOutput(this.scripts.pointerTokenName, datum)],
      requiredSigners: over.signers ?? [service.paymentKeyHash],
    };
  }

  private async deployLibrary(): Promise<void> {
    const service = this.actors.service;
    const lib = this.scripts.library.address;
    await this.chain.submit(
      {
        utxos: this.utxosOf(service),
        changeAddress: service.address,
        outputs: [
          { address: lib, inlineDatum: unitDatum, referenceScript: { language: "plutus:v3", cbor: this.scripts.proxy.code } },
          { address: lib, inlineDatum: unitDatum, referenceScript: { language: "plutus:v3", cbor: this.scripts.state.code } },
        ],
      },
      [service],
    );
    const deployed = this.chain.utxosAt(lib);
    this.proxyRef = deployed.find((u) => u.script?.cbor !== undefined && this.scripts.proxy.code.includes(u.script.cbor.slice(-200)))!;
    this.stateRef = deployed.find((u) => u.script?.cbor !== undefined && this.scripts.state.code.includes(u.script.cbor.slice(-200)))!;
    if (!this.proxyRef || !this.stateRef) throw new Error("library reference scripts not found");
  }

  // ---- bootstraps -----------------------------------------------------------------------------------------------

  mintBootstrapSpec(datum: BootstrapDatum, over: { signers?: string[]; assets?: Record<string, bigint>; outputs?: OutputSpec[] } = {}): Spec {
    const service = this.actors.service;
    return {
      utxos: this.utxosOf(service),
      changeAddress: service.address,
      referenceInputs: [this.pointer],
      mints: [this.proxyMint(over.assets ?? { [datum.tokenName]: 1n })],
      withdrawals: [this.stateWithdrawal("MINT_BOOTSTRAP", [])],
      outputs: over.outputs ?? [this.tokenOutput(datum.tokenName, encodeBootstrapDatum(datum))],
      requiredSigners: over.signers ?? [service.paymentKeyHash],
    };
  }

  async mintBootstrap(datum: BootstrapDatum): Promise<void> {
    await this.chain.submit(this.mintBootstrapSpec(datum), [this.actors.service]);
  }

  // ---- states ---------------------------------------------------------------------------------------------------

  /** Validity: the next 600 slots, ending (exclusive) well before the default ttl. */
  validity(): { validityStartSlot: number; ttlSlot: number } {
    const slot = this.chain.currentSlot();
    return { validityStartSlot: Math.max(0, slot - 10), ttlSlot: slot + 600 };
  }

  feeOutputs(terms: { fee: bigint; feeReceivers: readonly string[] }, wallets: readonly Wallet[] = [this.actors.feeA, this.actors.feeB]): OutputSpec[] {
    const share = terms.fee / BigInt(terms.feeReceivers.length);
    return wallets.map((w) => ({ address: w.enterpriseAddress, lovelace: share }));
  }

  /** The datum a fork from `boot` must create (the service's own rule, shared/issuance/fork-state.ts). */
  forkedDatum(owner: Wallet, boot: BootstrapDatum, id: string, certificates: readonly OnchainCertificate[]): StateDatum {
    return forkedStateDatum(boot, owner.paymentKeyHash, id, certificates);
  }

  /** MINT_STATE: `owner` forks from the bootstrap, spending its first UTxO (which names the state). */
  mintStateSpec(
    owner: Wallet,
    over: {
      certificates?: readonly OnchainCertificate[];
      datum?: (d: StateDatum) => StateDatum | Data;
      idSource?: OgmiosUtxo;
      id?: string;
      signers?: string[];
      feeOutputs?: OutputSpec[];
      assets?: Record<string, bigint>;
      burnState?: StateUtxo;
      validity?: { validityStartSlot?: number; ttlSlot?: number };
      bootstrapRef?: OgmiosUtxo | null;
      stateOutput?: Partial<OutputSpec>;
      bootstrapName?: string;
    } = {},
  ): Spec {
    const boot = this.findBootstrap(over.bootstrapName);
    const utxos = this.utxosOf(owner);
    const idSource = over.idSource ?? utxos[0]!;
    const id = over.id ?? stateIdOf({ txHash: idSource.transaction.id, index: idSource.index });
    const certificates = over.certificates ?? certificatesFor(owner, 1);
    const base = this.forkedDatum(owner, boot.datum, id, certificates);
    const mutated = over.datum ? over.datum(base) : base;
    const datum = "id" in mutated ? encodeStateDatum(mutated as StateDatum) : (mutated as Data);
    const assets = over.assets ?? { [id]: 1n, ...(over.burnState ? { [over.burnState.datum.id]: -1n } : {}) };
    const feeDue = boot.datum.fee > 0n && boot.datum.feeInterval > 0n && boot.datum.transactionLimit % boot.datum.feeInterval === 0n;
    return {
      utxos,
      keyInputs: [idSource],
      changeAddress: owner.address,
      referenceInputs: [this.pointer, ...(over.bootstrapRef === null ? [] : [over.bootstrapRef ?? boot.utxo])],
      scriptInputs: over.burnState ? [{ utxo: over.burnState.utxo, script: this.proxyWitness(), redeemer: dataToCborHex(encodeProxyRedeemer("USER")) }] : [],
      mints: [this.proxyMint(assets)],
      withdrawals: [this.stateWithdrawal("MINT_STATE", certificates)],
      outputs: [this.tokenOutput(id, datum, over.stateOutput), ...(over.feeOutputs ?? (feeDue ? this.feeOutputs(boot.datum) : []))],
      requiredSigners: over.signers ?? [...new Set([owner.paymentKeyHash, ...certificates.map((c) => c.issuer)])],
      ...this.validity(),
      ...(over.validity ?? {}),
    };
  }

  /** Forks a state for `owner` and returns it. */
  async mintState(
    owner: Wallet,
    certificates?: readonly OnchainCertificate[],
    signers: Wallet[] = [owner],
    bootstrapName?: string,
  ): Promise<StateUtxo & { budgets: Budget[]; size: number }> {
    const spec = this.mintStateSpec(owner, { ...(certificates ? { certificates } : {}), ...(bootstrapName ? { bootstrapName } : {}) });
    const id = (spec.mints![0]!.assets && Object.keys(spec.mints![0]!.assets).find((k) => spec.mints![0]!.assets[k] === 1n))!;
    const res = await this.chain.submit(spec, signers);
    return { ...this.findState(id), budgets: res.budgets, size: res.size };
  }

  /** UPDATE_STATE: the next datum has the new certificate hash and countdown − 1. */
  updateSpec(
    state: StateUtxo,
    owner: Wallet,
    over: {
      certificates?: readonly OnchainCertificate[];
      datum?: (d: StateDatum) => StateDatum | Data;
      signers?: string[];
      feeOutputs?: OutputSpec[];
      stateOutput?: Partial<OutputSpec>;
      extraOutputs?: OutputSpec[];
      mints?: MintSpec[];
      validity?: { validityStartSlot?: number; ttlSlot?: number };
      purpose?: StatePurpose;
      withdraw?: boolean;
      pointerRef?: OgmiosUtxo | null;
    } = {},
  ): Spec {
    const certificates = over.certificates ?? certificatesFor(owner, 1);
    const base: StateDatum = { ...state.datum, countdown: state.datum.countdown - 1n, certificateDataHash: certificateDataHash(certificates) };
    const mutated = over.datum ? over.datum(base) : base;
    const datum = "id" in mutated ? encodeStateDatum(mutated as StateDatum) : (mutated as Data);
    const d = state.datum;
    const feeDue = d.fee > 0n && d.feeInterval > 0n && d.countdown % d.feeInterval === 0n;
    return {
      utxos: this.utxosOf(owner),
      changeAddress: owner.address,
      referenceInputs: over.pointerRef === null ? [] : [over.pointerRef ?? this.pointer],
      scriptInputs: [{ utxo: state.utxo, script: this.proxyWitness(), redeemer: dataToCborHex(encodeProxyRedeemer("USER")) }],
      ...(over.mints ? { mints: over.mints } : {}),
      withdrawals: over.withdraw === false ? [] : [this.stateWithdrawal(over.purpose ?? "UPDATE_STATE", certificates)],
      outputs: [
        this.tokenOutput(d.id, datum, { lovelace: BigInt(state.utxo.value.ada.lovelace), ...over.stateOutput }),
        ...(over.feeOutputs ?? (feeDue ? this.feeOutputs(d) : [])),
        ...(over.extraOutputs ?? []),
      ],
      requiredSigners: over.signers ?? [...new Set([owner.paymentKeyHash, ...certificates.map((c) => c.issuer)])],
      ...this.validity(),
      ...(over.validity ?? {}),
    };
  }

  async update(state: StateUtxo, owner: Wallet, certificates?: readonly OnchainCertificate[], signers: Wallet[] = [owner]) {
    const res = await this.chain.submit(this.updateSpec(state, owner, certificates ? { certificates } : {}), signers);
    return { state: this.findState(state.datum.id), ...res };
  }

  /** BURN_STATE: the owner burns one or more of its states; the funds go back to the owner. */
  burnStatesSpec(states: readonly StateUtxo[], owner: Wallet, over: { signers?: string[]; assets?: Record<string, bigint>; certificates?: readonly OnchainCertificate[]; outputs?: OutputSpec[] } = {}): Spec {
    return {
      utxos: this.utxosOf(owner),
      changeAddress: owner.address,
      referenceInputs: [this.pointer],
      scriptInputs: states.map((s) => ({ utxo: s.utxo, script: this.proxyWitness(), redeemer: dataToCborHex(encodeProxyRedeemer("USER")) })),
      mints: [this.proxyMint(over.assets ?? Object.fromEntries(states.map((s) => [s.datum.id, -1n])))],
      withdrawals: [this.stateWithdrawal("BURN_STATE", over.certificates ?? [])],
      outputs: over.outputs ?? [],
      requiredSigners: over.signers ?? [owner.paymentKeyHash],
    };
  }

  /** BURN_BOOTSTRAP: an administrator burns a bootstrap token. */
  burnBootstrapSpec(over: { signers?: string[]; assets?: Record<string, bigint>; outputs?: OutputSpec[]; input?: OgmiosUtxo } = {}): Spec {
    const boot = this.findBootstrap();
    const service = this.actors.service;
    return {
      utxos: this.utxosOf(service),
      changeAddress: service.address,
      referenceInputs: [this.pointer],
      scriptInputs: [{ utxo: over.input ?? boot.utxo, script: this.proxyWitness(), redeemer: dataToCborHex(encodeProxyRedeemer("USER")) }],
      mints: [this.proxyMint(over.assets ?? { [boot.datum.tokenName]: -1n })],
      withdrawals: [this.stateWithdrawal("BURN_BOOTSTRAP", [])],
      outputs: over.outputs ?? [],
      requiredSigners: over.signers ?? [service.paymentKeyHash],
    };
  }

  /** Proxy ADMIN spend: re-create the pointer, optionally with a new state script or owner. */
  upgradeSpec(over: { datum?: Data; signers?: string[]; signerWallets?: Wallet[]; outputs?: OutputSpec[] } = {}): Spec {
    const service = this.actors.service;
    const datum = over.datum ?? encodeProxyDatum({ scriptPointer: this.scripts.state.hash, scriptOwner: service.paymentKeyHash });
    return {
      utxos: this.utxosOf(service),
      changeAddress: service.address,
      scriptInputs: [{ utxo: this.pointer, script: this.proxyWitness(), redeemer: dataToCborHex(encodeProxyRedeemer("ADMIN")) }],
      outputs: over.outputs ?? [this.tokenOutput(this.scripts.pointerTokenName, datum, { lovelace: BigInt(this.pointer.value.ada.lovelace) })],
      requiredSigners: over.signers ?? [service.paymentKeyHash],
    };
  }
}
