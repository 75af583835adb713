/**
 * The off-chain twins of the tokenizable list and its CIP-68 metadata: datum and redeemer layouts, CBOR round
 * trips, typed errors for malformed data, token names (TCN, CIP-67 labels) and the script derivations.
 */
import { expect } from "chai";
import fc from "fast-check";
import {
  type Data,
  type ProtocolError,
  DEFAULT_BLUEPRINT_PATH,
  bytes,
  constr,
  dataFromCborHex,
  dataToCborHex,
  int,
  list,
  loadBlueprint,
} from "../../../shared/protocol";
import {
  type Cip68Metadata,
  CIP68_REFERENCE_PREFIX,
  CIP68_USER_PREFIX,
  cip68ReferenceTokenName,
  cip68UserTokenName,
  decodeCip68Datum,
  encodeCip68Datum,
} from "../../../shared/extensions/tokenizable/cip68";
import {
  type TokenizableConfig,
  type TokenizableNode,
  TOKENIZABLE_LIST,
  decodeTokenizableDatum,
  encodeTokenizableHead,
  encodeTokenizableNode,
} from "../../../shared/extensions/tokenizable/datum";
import {
  type TokenizableRedeemer,
  decodeTokenizableRedeemer,
  encodeTokenizableRedeemer,
} from "../../../shared/extensions/tokenizable/redeemer";
import {
  deriveTokenizableMetadataScript,
  deriveTokenizableScript,
  redeemedTokens,
  tokenizableNodeTokenName,
} from "../../../shared/extensions/tokenizable/scripts";
import { listHeadTokenName } from "../../../shared/extensions/list-kit/list-tokens";
import { HexBytes } from "../../../shared/domain/hex";

const hex = (n: number) => fc.uint8Array({ minLength: n, maxLength: n }).map((b) => Buffer.from(b).toString("hex"));
const keyHash = hex(28);
const through = (d: Data): Data => dataFromCborHex(dataToCborHex(d));
const utf8 = (s: string) => Buffer.from(s, "utf8").toString("hex");

describe("tokenizable datums and redeemers", () => {
  const config: TokenizableConfig = {
    serviceValidatorHash: "01".repeat(28),
    allowedInserters: ["02".repeat(28)],
    deployer: "03".repeat(28),
    cip68ScriptHash: "04".repeat(28),
  };
  const node = (over: Partial<TokenizableNode> = {}): TokenizableNode => ({
    key: "aa".repeat(32),
    next: undefined,
    owner: "bb".repeat(28),
    assetName: utf8("DIPLOMA"),
    status: "Available",
    ...over,
  });

  it("lays out the HEAD as Constr 0 [next, Constr 0 [service hash, inserters, deployer, Option<cip68 hash>]]", () => {
    expect(encodeTokenizableHead({ next: "aa", config })).to.deep.equal(
      constr(0, [
        constr(0, [bytes("aa")]),
        constr(0, [bytes("01".repeat(28)), list([bytes("02".repeat(28))]), bytes("03".repeat(28)), constr(0, [bytes("04".repeat(28))])]),
      ]),
    );
    const plain = { ...config, cip68ScriptHash: undefined };
    expect(
      (encodeTokenizableHead({ next: undefined, config: plain }) as unknown as { fields: { fields: Data[] }[] }).fields[1]!.fields[3],
    ).to.deep.equal(constr(1));
    for (const c of [config, plain]) {
      expect(decodeTokenizableDatum(through(encodeTokenizableHead({ next: undefined, config: c })))).to.deep.equal({
        kind: "head",
        next: undefined,
        config: c,
      });
    }
  });

  it("lays out a node as Constr 1 [key, next, owner, asset name, status] with Available = 0, Redeemed = 1", () => {
    expect(encodeTokenizableNode(node({ next: "cc", status: "Redeemed" }))).to.deep.equal(
      constr(1, [bytes("aa".repeat(32)), constr(0, [bytes("cc")]), bytes("bb".repeat(28)), bytes(utf8("DIPLOMA")), constr(1)]),
    );
    expect((encodeTokenizableNode(node()) as unknown as { fields: Data[] }).fields[4]).to.deep.equal(constr(0));
  });

  it("round-trips any node through CBOR", () => {
    fc.assert(
      fc.property(
        fc.record({
          key: fc.integer({ min: 1, max: 64 }).chain(hex),
          next: fc.option(hex(32), { nil: undefined }),
          owner: keyHash,
          assetName: fc.integer({ min: 0, max: 32 }).chain(hex),
          status: fc.constantFrom("Available" as const, "Redeemed" as const),
        }),
        (n) => {
          expect(decodeTokenizableDatum(through(encodeTokenizableNode(n)))).to.deep.equal({ kind: "node", ...n });
        },
      ),
    );
  });

  it("rejects malformed datums with typed errors", () => {
    const fields = (encodeTokenizableNode(node()) as unknown as { fields: Data[] }).fields;
    const headFields = (encodeTokenizableHead({ next: undefined, config }) as unknown as { fields: Data[] }).fields;
    const cfg = (headFields[1] as unknown as { fields: Data[] }).fields;
    const bad: Data[] = [
      constr(2, []),
      constr(1, fields.slice(0, 4)),
      constr(1, [...fields.slice(0, 4), constr(2)]),
      constr(1, [fields[0]!, fields[1]!, bytes("bb"), fields[3]!, fields[4]!]),
      constr(0, [headFields[0]!, constr(0, cfg.slice(0, 3))]),
      constr(0, [headFields[0]!, constr(0, [...cfg.slice(0, 3), constr(0, [bytes("04")])])]),
    ];
    for (const d of bad) {
      expect(() => decodeTokenizableDatum(d))
        .to.throw()
        .that.satisfies((e: ProtocolError) => e.type === "INVALID_DATUM" || e.type === "INVALID_FIELD");
    }
  });

  it("lays out and round-trips the redeemer: Init = 0, Insert = 1, Redeem = 2", () => {
    const rs: TokenizableRedeemer[] = [
      { action: "Init", key: "aa" },
      { action: "Insert", key: "bb" },
      { action: "Redeem", key: "cc" },
    ];
    expect(rs.map((r) => encodeTokenizableRedeemer(r))).to.deep.equal([
      constr(0, [bytes("aa")]),
      constr(1, [bytes("bb")]),
      constr(2, [bytes("cc")]),
    ]);
    for (const r of rs) expect(decodeTokenizableRedeemer(through(encodeTokenizableRedeemer(r)))).to.deep.equal(r);
    expect(() => decodeTokenizableRedeemer(constr(3, [bytes("aa")]))).to.throw(/unknown constructor/);
    expect(() => decodeTokenizableRedeemer(constr(2, []))).to.throw(/expected 1 fields/);
  });
});

describe("tokenizable CIP-68 metadata and token names", () => {
  const metadata: Cip68Metadata = {
    name: "Diploma of Ada",
    image: "ipfs://bafy" + "x".repeat(80),
    description: "Master of Science, 2026",
    certificateHash: "ab".repeat(32),
  };

  it("lays out the datum as Constr 0 [map, version 1, extra] with the certificate hash as raw bytes", () => {
    const d = encodeCip68Datum(metadata) as unknown as { constr: number; fields: Data[] };
    expect(d.constr).to.equal(0);
    expect(d.fields[1]).to.deep.equal(int(1));
    const map = (d.fields[0] as { map: [Data, Data][] }).map;
    expect(map.map(([k]) => Buffer.from((k as { bytes: string }).bytes, "hex").toString("utf8"))).to.deep.equal([
      "name",
      "image",
      "description",
      "certificate_hash",
    ]);
    expect(map[3]![1]).to.deep.equal(bytes("ab".repeat(32)));
  });

  it("round-trips metadata, extra text fields included, through CBOR (long values are chunked)", () => {
    const withOther = { ...metadata, other: { issuer: "University", year: "2026" } };
    expect(decodeCip68Datum(through(encodeCip68Datum(withOther)))).to.deep.equal({ metadata: withOther, version: 1n });
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.string({ maxLength: 120 }), hex(32), (name, description, certificateHash) => {
        const m = { ...metadata, name, description, certificateHash };
        expect(decodeCip68Datum(through(encodeCip68Datum(m, 2n)))).to.deep.equal({ metadata: m, version: 2n });
      }),
    );
  });

  it("refuses a reserved key among the extra fields and a datum missing a field", () => {
    expect(() => encodeCip68Datum({ ...metadata, other: { name: "x" } })).to.throw(/reserved/);
    expect(() => decodeCip68Datum(constr(0, [{ map: [] }, int(1), constr(0)]))).to.throw(/missing name/);
    expect(() => decodeCip68Datum(constr(0, []))).to.throw(/expected 3 fields/);
  });

  it("names tokens: TCN HEAD, TCN ‖ blake2b_224(key) nodes, (100) / (222) CIP-67 labels", () => {
    expect(listHeadTokenName(TOKENIZABLE_LIST)).to.equal(utf8("TCN"));
    expect(tokenizableNodeTokenName("aa".repeat(64))).to.match(/^54434e[0-9a-f]{56}$/);
    expect(CIP68_REFERENCE_PREFIX).to.equal("000643b0");
    expect(CIP68_USER_PREFIX).to.equal("000de140");
    expect(cip68ReferenceTokenName(HexBytes("AB"))).to.equal("000643b0ab");
    expect(cip68UserTokenName(HexBytes("ab"))).to.equal("000de140ab");
    expect(redeemedTokens({ cip68ScriptHash: undefined }, HexBytes("AB"))).to.deep.equal({ mode: "plain", token: "ab" });
    expect(redeemedTokens({ cip68ScriptHash: "04".repeat(28) }, HexBytes("ab"))).to.deep.equal({
      mode: "cip68",
      user: "000de140ab",
      reference: "000643b0ab",
      metadataScriptHash: "04".repeat(28),
    });
  });

  it("derives the list script per init out-ref and one metadata script for every list", () => {
    const bp = loadBlueprint(DEFAULT_BLUEPRINT_PATH);
    const a = deriveTokenizableScript(bp, { txHash: "11".repeat(32), index: 0 }, 0);
    const b = deriveTokenizableScript(bp, { txHash: "11".repeat(32), index: 1 }, 0);
    expect(a.hash).to.not.equal(b.hash);
    expect(a.policyId).to.equal(a.hash);
    expect(a.headTokenName).to.equal("54434e");
    expect(a.address).to.match(/^addr_test1w/);
    const m = deriveTokenizableMetadataScript(bp, 1);
    expect(m.hash).to.match(/^[0-9a-f]{56}$/);
    expect(m.address).to.match(/^addr1w/);
    expect(deriveTokenizableMetadataScript(bp, 0).hash).to.equal(m.hash);
  });
});
