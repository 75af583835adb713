/**
 * Property: every random single mutation of a valid CIP-68 Redeem (re-created datum fields, minted quantities,
 * where the user and reference tokens go, the metadata datum, the redeemer's key, the owner's signature, the
 * node output's ADA and address, extra mints) is rejected in phase 2, while the unmutated Redeem is accepted.
 * Runs against the shipped build.
 */
import { expect } from "chai";
import fc from "fast-check";
import { enterpriseAddressOfKeyHash } from "../../shared/csl/address";
import { scriptAddress } from "../../shared/csl/plutus-script";
import { type Data, dataToCborHex } from "../../shared/protocol";
import { type TokenizableNode } from "../../shared/extensions/tokenizable/datum";
import { encodeCip68Datum } from "../../shared/extensions/tokenizable/cip68";
import { nodeAssetName } from "../../shared/extensions/list-kit/list-tokens";
import { redeemedTokens } from "../../shared/extensions/tokenizable/scripts";
import { TokenizableFixture, keyOf } from "../../fixtures/onchain/tokenizable-fixture";

const KEY = keyOf(0x50);
const ASSET = nodeAssetName(KEY);

type Mutation =
  | { kind: "datum"; change: Partial<TokenizableNode> }
  | { kind: "userMinted"; qty: bigint }
  | { kind: "referenceMinted"; qty: bigint }
  | { kind: "payee"; keyHash: string }
  | { kind: "referenceAt"; scriptHash: string }
  | { kind: "certificateHash"; hash: string }
  | { kind: "version"; version: bigint }
  | { kind: "dropField"; field: "name" | "image" | "description" | "certificate_hash" }
  | { kind: "redeemerKey"; key: string }
  | { kind: "unsigned" }
  | { kind: "nodeAda"; less: bigint }
  | { kind: "stakedNode" }
  | { kind: "extraMint"; name: string };

const hex = (n: number) => fc.uint8Array({ minLength: n, maxLength: n }).map((b) => Buffer.from(b).toString("hex"));

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("datum" as const), change: fc.record({ key: hex(32) }) }),
  fc.record({ kind: fc.constant("datum" as const), change: fc.record({ next: hex(32) }) }),
  fc.record({ kind: fc.constant("datum" as const), change: fc.record({ owner: hex(28) }) }),
  fc.record({ kind: fc.constant("datum" as const), change: fc.record({ assetName: fc.integer({ min: 0, max: 28 }).chain(hex) }) }),
  fc.record({ kind: fc.constant("datum" as const), change: fc.constant({ status: "Available" as const }) }),
  fc.record({ kind: fc.constant("userMinted" as const), qty: fc.bigInt({ min: 2n, max: 1_000n }) }),
  fc.record({ kind: fc.constant("referenceMinted" as const), qty: fc.bigInt({ min: 2n, max: 1_000n }) }),
  fc.record({ kind: fc.constant("payee" as const), keyHash: hex(28) }),
  fc.record({ kind: fc.constant("referenceAt" as const), scriptHash: hex(28) }),
  fc.record({ kind: fc.constant("certificateHash" as const), hash: fc.integer({ min: 0, max: 64 }).chain(hex) }),
  fc.record({ kind: fc.constant("version" as const), version: fc.bigInt({ min: -5n, max: 0n }) }),
  fc.record({
    kind: fc.constant("dropField" as const),
    field: fc.constantFrom("name" as const, "image" as const, "description" as const, "certificate_hash" as const),
  }),
  fc.record({ kind: fc.constant("redeemerKey" as const), key: hex(32) }),
  fc.constant({ kind: "unsigned" as const }),
  fc.record({ kind: fc.constant("nodeAda" as const), less: fc.bigInt({ min: 1n, max: 3_000_000n }) }),
  fc.constant({ kind: "stakedNode" as const }),
  fc.record({ kind: fc.constant("extraMint" as const), name: fc.integer({ min: 1, max: 32 }).chain(hex) }),
);

describe("property: mutated CIP-68 Redeem transactions are rejected (shipped build)", function () {
  this.timeout(300_000);
  let f: TokenizableFixture;

  before(async () => {
    f = await TokenizableFixture.create("shipped", { cip68: true });
    await f.accept(f.initSpec(KEY, { nodeOutput: { lovelace: 5_000_000n } }));
  });

  /** Whether a mutation leaves the transaction as it was (then it is no mutation). */
  function isNoOp(m: Mutation): boolean {
    const node = f.node(KEY).datum;
    const expected: TokenizableNode = { ...node, status: "Redeemed" };
    if (m.kind === "datum") return Object.entries(m.change).every(([k, v]) => expected[k as keyof TokenizableNode] === v);
    if (m.kind === "payee") return m.keyHash === node.owner;
    if (m.kind === "referenceAt") return m.scriptHash === f.metadataScript.hash;
    if (m.kind === "certificateHash") return m.hash === KEY;
    if (m.kind === "redeemerKey") return m.key === KEY;
    if (m.kind === "extraMint") return m.name === tokens().user || m.name === tokens().reference;
    return false;
  }

  const tokens = () => redeemedTokens(f.config, ASSET) as Extract<ReturnType<typeof redeemedTokens>, { mode: "cip68" }>;

  function metadataWithout(field: string): string {
    const d = encodeCip68Datum(f.metadataFor(KEY)) as unknown as { fields: Data[] };
    const map = (d.fields[0] as { map: (readonly [Data, Data])[] }).map;
    const kept = map.filter(([k]) => Buffer.from((k as { bytes: string }).bytes, "hex").toString("utf8") !== field);
    return dataToCborHex({ constr: 0, fields: [{ map: kept }, d.fields[1]!, d.fields[2]!] });
  }

  function specFor(m: Mutation | undefined) {
    const { alice, bob } = f.actors;
    const t = tokens();
    const node = f.node(KEY);
    const toOwner = (qty: bigint, address = bob.address) => ({ address, assets: { [f.policy]: { [t.user]: qty } } });
    const metadata = dataToCborHex(encodeCip68Datum(f.metadataFor(KEY)));
    const reference = (qty: bigint, address = f.metadataScript.address, inlineDatum = metadata) => ({
      address,
      assets: { [f.policy]: { [t.reference]: qty } },
      inlineDatum,
    });
    switch (m?.kind) {
      case undefined:
        return f.redeemSpec(KEY);
      case "datum":
        return f.redeemSpec(KEY, { node: (n) => ({ ...n, ...m.change }), nodeOutput: { lovelace: 6_000_000n } });
      case "userMinted":
        return f.redeemSpec(KEY, { assets: { [t.user]: m.qty, [t.reference]: 1n }, ownerOutput: toOwner(m.qty) });
      case "referenceMinted":
        return f.redeemSpec(KEY, { assets: { [t.user]: 1n, [t.reference]: m.qty }, referenceOutput: reference(m.qty) });
      case "payee":
        return f.redeemSpec(KEY, { ownerOutput: toOwner(1n, enterpriseAddressOfKeyHash(m.keyHash, 0)) });
      case "referenceAt":
        return f.redeemSpec(KEY, { referenceOutput: reference(1n, scriptAddress(m.scriptHash, 0)) });
      case "certificateHash":
        return f.redeemSpec(KEY, { referenceDatum: dataToCborHex(encodeCip68Datum({ ...f.metadataFor(KEY), certificateHash: m.hash })) });
      case "version":
        return f.redeemSpec(KEY, { referenceDatum: dataToCborHex(encodeCip68Datum(f.metadataFor(KEY), m.version)) });
      case "dropField":
        return f.redeemSpec(KEY, { referenceDatum: metadataWithout(m.field) });
      case "redeemerKey":
        return f.redeemSpec(KEY, { redeemer: { action: "Redeem", key: m.key } });
      case "unsigned":
        return f.redeemSpec(KEY, { redeemer_: alice });
      case "nodeAda":
        return f.redeemSpec(KEY, { nodeOutput: { lovelace: BigInt(node.utxo.value.ada.lovelace) - m.less } });
      case "stakedNode":
        return f.redeemSpec(KEY, { nodeOutput: { address: scriptAddress(f.script.hash, 0, alice.stakeKeyHash) } });
      case "extraMint":
        return f.redeemSpec(KEY, {
          assets: { [t.user]: 1n, [t.reference]: 1n, [m.name]: 1n },
          extra: { outputs: [{ address: bob.address, assets: { [f.policy]: { [m.name]: 1n } } }] },
        });
    }
  }

  it("accepts the unmutated Redeem (control)", async () => {
    const spec = specFor(undefined);
    const { cborHex } = await f.p.chain.buildSigned(spec, f.p.signersOf(spec, f.actors.bob));
    const budgets = await f.p.chain.devnet.evaluateTransaction(cborHex);
    expect(budgets.map((b) => b.validator.purpose).sort()).to.deep.equal(["mint", "spend"]);
  });

  it("rejects every single random mutation", async () => {
    await fc.assert(
      fc.asyncProperty(mutation, async (m) => {
        fc.pre(!isNoOp(m));
        const spec = specFor(m);
        await f.p.chain.expectPhase2Rejection(spec, f.p.signersOf(spec, f.payerOf(spec)));
      }),
      { numRuns: 40 },
    );
  });
});
