/**
 * The off-chain twins of the sorted-list module and the fractionized list: BLAKE2b, token names, key order,
 * insert positions, and the datum and redeemer codecs with their exact Plutus layouts.
 */
import { createHash, randomBytes } from "node:crypto";
import { expect } from "chai";
import fc from "fast-check";
import { CSL } from "../../../shared/csl/lib";
import {
  type Data,
  type ProtocolError,
  blake2b,
  blake2b224,
  bytes,
  compareByteStrings,
  constr,
  dataFromCborHex,
  dataToCborHex,
  expectOptionBytes,
  optionBytes,
  int,
  list,
} from "../../../shared/protocol";
import {
  type FractionizedNode,
  FRACTIONIZED_LIST,
  decodeFractionizedDatum,
  encodeFractionizedHead,
  encodeFractionizedNode,
} from "../../../shared/extensions/fractionized/datum";
import {
  type FractionizedRedeemer,
  decodeFractionizedRedeemer,
  encodeFractionizedRedeemer,
} from "../../../shared/extensions/fractionized/redeemer";
import { findInsertPosition, listHeadTokenName, listNodeTokenName, nodeAssetName } from "../../../shared/extensions/list-kit/list-tokens";
import { fractionizedNodeTokenName } from "../../../shared/extensions/fractionized/scripts";
import { HexBytes } from "../../../shared/domain/hex";

const hex = (n: number) => fc.uint8Array({ minLength: n, maxLength: n }).map((b) => Buffer.from(b).toString("hex"));
const keyHash = hex(28);
const through = (d: Data): Data => dataFromCborHex(dataToCborHex(d));

describe("BLAKE2b", () => {
  it("matches Node's blake2b512 for inputs across block boundaries", () => {
    for (const n of [0, 1, 63, 64, 127, 128, 129, 255, 256, 300]) {
      const input = randomBytes(n);
      expect(blake2b(input, 64).toString("hex"), `length ${n}`).to.equal(createHash("blake2b512").update(input).digest("hex"));
    }
  });

  it("blake2b-224 matches the ledger's key hash and script hash", () => {
    const key = CSL.PrivateKey.generate_ed25519().to_public();
    expect(blake2b224(key.as_bytes()).toString("hex")).to.equal(key.hash().to_hex());
    const script = randomBytes(200);
    expect(blake2b224(Buffer.concat([Buffer.from([3]), script])).toString("hex")).to.equal(CSL.PlutusScript.new_v3(script).hash().to_hex());
  });

  it("rejects digest lengths outside 1..64", () => {
    expect(() => blake2b(Buffer.alloc(1), 0)).to.throw(RangeError);
    expect(() => blake2b(Buffer.alloc(1), 65)).to.throw(RangeError);
  });
});

describe("sorted list: token names and key order", () => {
  it("names the HEAD by the prefix and a node by prefix ‖ blake2b_224(key) (31 bytes)", () => {
    const key = "ab".repeat(32);
    expect(listHeadTokenName(FRACTIONIZED_LIST)).to.equal("46524e");
    expect(listNodeTokenName(FRACTIONIZED_LIST, key)).to.equal("46524e" + blake2b224(Buffer.from(key, "hex")).toString("hex"));
    expect(fractionizedNodeTokenName(key)).to.have.length(62);
  });

  it("gives different names to keys that share their first 29 bytes", () => {
    const a = "11".repeat(29) + "00".repeat(35);
    const b = "11".repeat(29) + "01".repeat(35);
    expect(fractionizedNodeTokenName(a)).to.not.equal(fractionizedNodeTokenName(b));
  });

  it("names a node's tokens blake2b_224(key): 28 bytes, the node token's name without the prefix, distinct per key", () => {
    const key = "ab".repeat(32);
    expect(nodeAssetName(key)).to.equal(blake2b224(Buffer.from(key, "hex")).toString("hex"));
    expect(nodeAssetName(key)).to.have.length(56);
    expect(fractionizedNodeTokenName(key)).to.equal("46524e" + nodeAssetName(key));
    expect(nodeAssetName("11".repeat(29) + "00".repeat(35))).to.not.equal(nodeAssetName("11".repeat(29) + "01".repeat(35)));
    expect(nodeAssetName("ABCD")).to.equal(nodeAssetName("abcd"));
  });

  it("orders keys as bytes: a shorter prefix first, never numerically", () => {
    expect(compareByteStrings("50", "5000")).to.be.below(0);
    expect(compareByteStrings("5fff", "60")).to.be.below(0);
    expect(compareByteStrings("60", "5fffffff")).to.be.above(0);
    expect(compareByteStrings("abcd", "ABCD")).to.equal(0);
  });

  it("finds the insert position by walking the links from the HEAD", () => {
    const view = {
      headNext: "20",
      nodes: [
        { key: "20", next: "40" },
        { key: "40", next: undefined },
        { key: "30", next: undefined }, // unlinked: never a predecessor
      ],
    };
    expect(findInsertPosition(view, HexBytes("10"))).to.deep.equal({ predecessor: "HEAD", next: "20" });
    expect(findInsertPosition(view, HexBytes("35"))).to.deep.equal({ predecessor: "20", next: "40" });
    expect(findInsertPosition(view, HexBytes("50"))).to.deep.equal({ predecessor: "40", next: undefined });
    expect(findInsertPosition(view, HexBytes("40"))).to.deep.equal({ duplicate: true });
    expect(findInsertPosition({ headNext: undefined, nodes: [] }, HexBytes("10"))).to.deep.equal({ predecessor: "HEAD", next: undefined });
  });

  it("reports a broken link", () => {
    expect(() => findInsertPosition({ headNext: "20", nodes: [] }, HexBytes("30"))).to.throw(/has no node/);
  });

  it("encodes Option<bytes> as Some = Constr 0 [x], None = Constr 1 []", () => {
    expect(optionBytes("ab")).to.deep.equal(constr(0, [bytes("ab")]));
    expect(optionBytes(undefined)).to.deep.equal(constr(1));
    expect(expectOptionBytes(constr(0, [bytes("ab")]), "x")).to.equal("ab");
    expect(expectOptionBytes(constr(1), "x")).to.equal(undefined);
    expect(() => expectOptionBytes(constr(0), "x")).to.throw(/Some\(bytes\) or None/);
  });
});

describe("fractionized datums and redeemers", () => {
  const node = (over: Partial<FractionizedNode> = {}): FractionizedNode => ({
    key: "aa".repeat(32),
    next: undefined,
    totalAmount: 100n,
    remainingAmount: 40n,
    claimants: ["bb".repeat(28)],
    assetName: "46524143",
    status: "TokensAvailable",
    ...over,
  });

  it("lays out the HEAD as Constr 0 [next, Constr 0 [service hash, inserters, deployer]]", () => {
    const config = { serviceValidatorHash: "01".repeat(28), allowedInserters: ["02".repeat(28)], deployer: "03".repeat(28) };
    expect(encodeFractionizedHead({ next: "aa", config })).to.deep.equal(
      constr(0, [constr(0, [bytes("aa")]), constr(0, [bytes("01".repeat(28)), list([bytes("02".repeat(28))]), bytes("03".repeat(28))])]),
    );
    expect(decodeFractionizedDatum(through(encodeFractionizedHead({ next: undefined, config })))).to.deep.equal({
      kind: "head",
      next: undefined,
      config,
    });
  });

  it("lays out a node as Constr 1 [key, next, total, remaining, claimants, asset name, status]", () => {
    expect(encodeFractionizedNode(node({ status: "TokensExhausted", remainingAmount: 0n }))).to.deep.equal(
      constr(1, [bytes("aa".repeat(32)), constr(1), int(100), int(0), list([bytes("bb".repeat(28))]), bytes("46524143"), constr(1)]),
    );
  });

  it("round-trips any node through CBOR", () => {
    fc.assert(
      fc.property(
        fc.record({
          key: fc.integer({ min: 1, max: 64 }).chain(hex),
          next: fc.option(hex(32), { nil: undefined }),
          totalAmount: fc.bigInt({ min: 1n, max: 2n ** 63n }),
          remainingAmount: fc.bigInt({ min: 0n, max: 2n ** 63n }),
          claimants: fc.array(keyHash, { maxLength: 4 }),
          assetName: fc.integer({ min: 0, max: 32 }).chain(hex),
          status: fc.constantFrom("TokensAvailable" as const, "TokensExhausted" as const),
        }),
        (n) => {
          expect(decodeFractionizedDatum(through(encodeFractionizedNode(n)))).to.deep.equal({ kind: "node", ...n });
        },
      ),
    );
  });

  it("rejects malformed datums with typed errors", () => {
    const bad: Data[] = [
      constr(2, []),
      constr(1, [bytes("aa")]),
      constr(0, [constr(1)]),
      constr(1, [...(encodeFractionizedNode(node()) as unknown as { fields: Data[] }).fields.slice(0, 6), constr(2)]),
    ];
    for (const d of bad) {
      expect(() => decodeFractionizedDatum(d))
        .to.throw()
        .that.satisfies((e: ProtocolError) => e.type === "INVALID_DATUM" || e.type === "INVALID_FIELD");
    }
  });

  it("lays out and round-trips the redeemer: Init = 0, Insert = 1, Claim = 2", () => {
    const rs: FractionizedRedeemer[] = [
      { action: "Init", key: "aa" },
      { action: "Insert", key: "bb" },
      { action: "Claim", key: "cc", claimer: "dd".repeat(28), amount: 7n },
    ];
    expect(rs.map((r) => (encodeFractionizedRedeemer(r) as { constr: number }).constr)).to.deep.equal([0, 1, 2]);
    for (const r of rs) expect(decodeFractionizedRedeemer(through(encodeFractionizedRedeemer(r)))).to.deep.equal(r);
    expect(() => decodeFractionizedRedeemer(constr(3, []))).to.throw(/unknown constructor/);
  });
});
