/**
 * Property: every random single mutation of a valid fractionized Claim (re-created datum fields, minted and
 * paid amounts, redeemer fields, signer, the node output's ADA and address, extra mints) is rejected in phase 2,
 * while the unmutated claim is accepted. Runs against the shipped build.
 */
import { expect } from "chai";
import fc from "fast-check";
import { enterpriseAddressOfKeyHash } from "../../shared/csl/address";
import { nodeAssetName } from "../../shared/extensions/list-kit/list-tokens";
import { type FractionizedNode } from "../../shared/extensions/fractionized/datum";
import { type FractionizedRedeemer } from "../../shared/extensions/fractionized/redeemer";
import { FractionizedFixture, keyOf } from "../../fixtures/onchain/fractionized-fixture";

const KEY = keyOf(0x50);
const ASSET = nodeAssetName(KEY);
const AMOUNT = 5n;

type Mutation =
  | { kind: "datum"; change: Partial<FractionizedNode> }
  | { kind: "minted"; qty: bigint }
  | { kind: "paid"; qty: bigint }
  | { kind: "payee"; keyHash: string }
  | { kind: "redeemer"; change: { key?: string; claimer?: string; amount?: bigint } }
  | { kind: "unsigned" }
  | { kind: "nodeAda"; less: bigint }
  | { kind: "stakedNode" }
  | { kind: "extraMint"; name: string };

const hex = (n: number) => fc.uint8Array({ minLength: n, maxLength: n }).map((b) => Buffer.from(b).toString("hex"));

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("datum" as const), change: fc.record({ key: hex(32) }) }),
  fc.record({ kind: fc.constant("datum" as const), change: fc.record({ next: hex(32) }) }),
  fc.record({ kind: fc.constant("datum" as const), change: fc.record({ totalAmount: fc.bigInt({ min: -10n, max: 10n ** 12n }) }) }),
  fc.record({ kind: fc.constant("datum" as const), change: fc.record({ remainingAmount: fc.bigInt({ min: -10n, max: 10n ** 12n }) }) }),
  fc.record({ kind: fc.constant("datum" as const), change: fc.record({ claimants: fc.array(hex(28), { maxLength: 3 }) }) }),
  fc.record({ kind: fc.constant("datum" as const), change: fc.record({ assetName: fc.integer({ min: 0, max: 32 }).chain(hex) }) }),
  fc.record({ kind: fc.constant("datum" as const), change: fc.constant({ status: "TokensExhausted" as const }) }),
  fc.record({ kind: fc.constant("minted" as const), qty: fc.bigInt({ min: 1n, max: 1_000n }) }),
  fc.record({ kind: fc.constant("paid" as const), qty: fc.bigInt({ min: 1n, max: AMOUNT - 1n }) }),
  fc.record({ kind: fc.constant("payee" as const), keyHash: hex(28) }),
  fc.record({ kind: fc.constant("redeemer" as const), change: fc.record({ key: hex(32) }) }),
  fc.record({ kind: fc.constant("redeemer" as const), change: fc.record({ claimer: hex(28) }) }),
  fc.record({ kind: fc.constant("redeemer" as const), change: fc.record({ amount: fc.bigInt({ min: -1_000n, max: 1_000n }) }) }),
  fc.constant({ kind: "unsigned" as const }),
  fc.record({ kind: fc.constant("nodeAda" as const), less: fc.bigInt({ min: 1n, max: 3_000_000n }) }),
  fc.constant({ kind: "stakedNode" as const }),
  fc.record({ kind: fc.constant("extraMint" as const), name: fc.integer({ min: 1, max: 32 }).chain(hex) }),
);

describe("property: mutated fractionized Claim transactions are rejected (shipped build)", function () {
  this.timeout(300_000);
  let f: FractionizedFixture;

  before(async () => {
    f = await FractionizedFixture.create("shipped");
    const { bob, issuer } = f.actors;
    await f.accept(
      f.initSpec(KEY, {
        terms: { totalAmount: 1_000n, claimants: [bob.paymentKeyHash, issuer.paymentKeyHash] },
        nodeOutput: { lovelace: 5_000_000n },
      }),
    );
  });

  /** Whether a mutation leaves the transaction as it was (then it is no mutation). */
  function isNoOp(m: Mutation): boolean {
    const node = f.node(KEY).datum;
    const expected: FractionizedNode = { ...node, remainingAmount: node.remainingAmount - AMOUNT };
    if (m.kind === "datum")
      return Object.entries(m.change).every(
        ([k, v]) => JSON.stringify(expected[k as keyof FractionizedNode], big) === JSON.stringify(v, big),
      );
    if (m.kind === "minted") return m.qty === AMOUNT;
    if (m.kind === "payee") return m.keyHash === f.actors.bob.paymentKeyHash;
    if (m.kind === "redeemer") {
      const r = { key: KEY, claimer: f.actors.bob.paymentKeyHash, amount: AMOUNT };
      return Object.entries(m.change).every(([k, v]) => r[k as keyof typeof r] === v);
    }
    return false;
  }

  function specFor(m: Mutation | undefined) {
    const { alice, bob } = f.actors;
    const node = f.node(KEY);
    const paid = (qty: bigint, to = bob.address) => ({ address: to, assets: { [f.policy]: { [ASSET]: qty } } });
    switch (m?.kind) {
      case undefined:
        return f.claimSpec(KEY, bob, AMOUNT);
      case "datum":
        return f.claimSpec(KEY, bob, AMOUNT, { node: (n) => ({ ...n, ...m.change }), nodeOutput: { lovelace: 6_000_000n } });
      case "minted":
        return f.claimSpec(KEY, bob, AMOUNT, { assets: { [ASSET]: m.qty }, claimerOutput: paid(m.qty) });
      case "paid":
        return f.claimSpec(KEY, bob, AMOUNT, { claimerOutput: paid(m.qty), extra: { outputs: [paid(AMOUNT - m.qty, alice.address)] } });
      case "payee":
        return f.claimSpec(KEY, bob, AMOUNT, { claimerOutput: paid(AMOUNT, enterpriseAddressOfKeyHash(m.keyHash, 0)) });
      case "redeemer": {
        const redeemer: FractionizedRedeemer = { action: "Claim", key: KEY, claimer: bob.paymentKeyHash, amount: AMOUNT, ...m.change };
        return f.claimSpec(KEY, bob, AMOUNT, { redeemer });
      }
      case "unsigned":
        return f.claimSpec(KEY, bob, AMOUNT, { payer: alice, signers: [alice.paymentKeyHash] });
      case "nodeAda":
        return f.claimSpec(KEY, bob, AMOUNT, { nodeOutput: { lovelace: BigInt(node.utxo.value.ada.lovelace) - m.less } });
      case "stakedNode":
        return f.claimSpec(KEY, bob, AMOUNT, { nodeOutput: { address: f.stakedScriptAddress() } });
      case "extraMint":
        return f.claimSpec(KEY, bob, AMOUNT, { assets: { [ASSET]: AMOUNT, ...(m.name === ASSET ? {} : { [m.name]: 1n }) } });
    }
  }

  it("accepts the unmutated claim (control)", async () => {
    const spec = specFor(undefined);
    const { cborHex } = await f.p.chain.buildSigned(spec, f.p.signersOf(spec, f.actors.bob));
    const budgets = await f.p.chain.devnet.evaluateTransaction(cborHex);
    expect(budgets.map((b) => b.validator.purpose).sort()).to.deep.equal(["mint", "spend"]);
  });

  it("rejects every single random mutation", async () => {
    await fc.assert(
      fc.asyncProperty(mutation, async (m) => {
        fc.pre(!isNoOp(m) && !(m.kind === "extraMint" && m.name === ASSET));
        const spec = specFor(m);
        await f.p.chain.expectPhase2Rejection(spec, f.p.signersOf(spec, f.payerOf(spec)));
      }),
      { numRuns: 40 },
    );
  });
});

const big = (_k: string, v: unknown) => (typeof v === "bigint" ? v.toString() : v);
