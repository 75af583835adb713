/**
 * Codecs and derivations of the connected-goods extension: round trips through CBOR, the exact Plutus layouts
 * the validators read, item ordering, ciphertext bounds, token names and the deployment's scripts.
 */
import { createHash } from "node:crypto";
import { expect } from "chai";
import fc from "fast-check";
import {
  type Data,
  type ProtocolError,
  DEFAULT_BLUEPRINT_PATH,
  applyParams,
  bytes,
  constr,
  dataFromCborHex,
  dataToCborHex,
  int,
  list,
  loadBlueprint,
  scriptAddressOf,
  scriptHashOf,
  validatorCode,
} from "../../../shared/protocol";
import {
  type BatchDatum,
  MAX_BATCH_DATUM_BYTES,
  checkBatchDatumSize,
  decodeBatchDatum,
  encodeBatchDatum,
  sortBatchItems,
} from "../../../shared/extensions/connected-goods/batch-datum";
import {
  type GoodsMintRedeemer,
  type GoodsSpendRedeemer,
  decodeGoodsMintRedeemer,
  decodeGoodsSpendRedeemer,
  encodeGoodsMintRedeemer,
  encodeGoodsSpendRedeemer,
} from "../../../shared/extensions/connected-goods/goods-redeemers";
import {
  type HubSpendRedeemer,
  decodeHubSpendRedeemer,
  encodeHubSpendRedeemer,
} from "../../../shared/extensions/connected-goods/social-hub-redeemer";
import { PROFILE_FIELDS } from "../../../shared/extensions/connected-goods/profile-fields";
import {
  type SocialHubDatum,
  MAX_PROFILE_FIELD_BYTES,
  MIN_PROFILE_FIELD_BYTES,
  decodeSocialHubDatum,
  encodeSocialHubDatum,
} from "../../../shared/extensions/connected-goods/social-hub-datum";
import { batchIdOf, hubTokenNameOf } from "../../../shared/extensions/connected-goods/goods-token-names";
import { deriveConnectedGoodsScripts } from "../../../shared/extensions/connected-goods/goods-scripts";

const hex = (min: number, max = min) => fc.uint8Array({ minLength: min, maxLength: max }).map((b) => Buffer.from(b).toString("hex"));
const keyHash = hex(28);
const roundTrip = <T>(value: T, encode: (v: T) => Data, decode: (d: Data) => T): T => decode(dataFromCborHex(dataToCborHex(encode(value))));
const typeOf = (run: () => unknown): string | undefined => {
  try {
    run();
  } catch (err) {
    return (err as ProtocolError).type;
  }
  return undefined;
};

const item = fc.record({ tokenName: hex(1, 32), itemKeyHash: keyHash });
const batchDatum: fc.Arbitrary<BatchDatum> = fc.record({
  batchId: hex(32),
  issuer: keyHash,
  hubPolicy: keyHash,
  items: fc.uniqueArray(item, { minLength: 1, maxLength: 20, selector: (i) => i.tokenName }).map(sortBatchItems),
});
const ciphertext = hex(MIN_PROFILE_FIELD_BYTES, MAX_PROFILE_FIELD_BYTES);
const hubDatum: fc.Arbitrary<SocialHubDatum> = fc.record({
  owner: keyHash,
  batchId: hex(32),
  itemName: hex(1, 32),
  profile: fc.record(Object.fromEntries(PROFILE_FIELDS.map((f) => [f, ciphertext])), { requiredKeys: [] }),
});

describe("connected-goods codecs", () => {
  it("round-trips BatchDatum through CBOR", () => {
    fc.assert(
      fc.property(batchDatum, (d) => void expect(roundTrip(d, encodeBatchDatum, decodeBatchDatum)).to.deep.equal(d)),
      { numRuns: 50 },
    );
  });

  it("round-trips SocialHubDatum through CBOR (ciphertexts over 64 bytes are chunked)", () => {
    fc.assert(
      fc.property(hubDatum, (d) => void expect(roundTrip(d, encodeSocialHubDatum, decodeSocialHubDatum)).to.deep.equal(d)),
      { numRuns: 50 },
    );
  });

  it("round-trips the redeemers", () => {
    const mints: GoodsMintRedeemer[] = [{ type: "MintBatch", seed: { txHash: "ab".repeat(32), index: 513 } }, { type: "BurnBatch" }];
    for (const r of mints) expect(roundTrip(r, encodeGoodsMintRedeemer, decodeGoodsMintRedeemer)).to.deep.equal(r);
    const spends: GoodsSpendRedeemer[] = [{ type: "Claim", tokenName: "73686f65" }, { type: "Close" }];
    for (const r of spends) expect(roundTrip(r, encodeGoodsSpendRedeemer, decodeGoodsSpendRedeemer)).to.deep.equal(r);
    const hubs: HubSpendRedeemer[] = [{ type: "Update" }, { type: "Transfer", newOwner: "22".repeat(28) }];
    for (const r of hubs) expect(roundTrip(r, encodeHubSpendRedeemer, decodeHubSpendRedeemer)).to.deep.equal(r);
  });

  it("uses the layouts the validators read", () => {
    const d: BatchDatum = {
      batchId: "aa".repeat(32),
      issuer: "11".repeat(28),
      hubPolicy: "22".repeat(28),
      items: [{ tokenName: "61", itemKeyHash: "33".repeat(28) }],
    };
    expect(encodeBatchDatum(d)).to.deep.equal(
      constr(0, [
        bytes("aa".repeat(32)),
        bytes("11".repeat(28)),
        bytes("22".repeat(28)),
        list([constr(0, [bytes("61"), bytes("33".repeat(28))])]),
      ]),
    );
    expect(encodeGoodsMintRedeemer({ type: "MintBatch", seed: { txHash: "ab".repeat(32), index: 2 } })).to.deep.equal(
      constr(0, [constr(0, [bytes("ab".repeat(32)), int(2)])]),
    );
    expect(encodeGoodsMintRedeemer({ type: "BurnBatch" })).to.deep.equal(constr(1));
    expect(encodeGoodsSpendRedeemer({ type: "Claim", tokenName: "61" })).to.deep.equal(constr(0, [bytes("61")]));
    expect(encodeGoodsSpendRedeemer({ type: "Close" })).to.deep.equal(constr(1));
    expect(encodeHubSpendRedeemer({ type: "Update" })).to.deep.equal(constr(0));
    expect(encodeHubSpendRedeemer({ type: "Transfer", newOwner: "44".repeat(28) })).to.deep.equal(constr(1, [bytes("44".repeat(28))]));
    const name = "ff".repeat(MIN_PROFILE_FIELD_BYTES);
    const hub = encodeSocialHubDatum({ owner: "11".repeat(28), batchId: "aa".repeat(32), itemName: "61", profile: { website: name } });
    expect(PROFILE_FIELDS).to.deep.equal([
      "picture",
      "name",
      "subtitle",
      "x",
      "telegram",
      "discord",
      "youtube",
      "website",
      "email",
      "adaHandle",
      "reddit",
      "instagram",
      "github",
      "linkedin",
    ]);
    expect(hub).to.deep.equal(
      constr(0, [
        bytes("11".repeat(28)),
        bytes("aa".repeat(32)),
        bytes("61"),
        ...PROFILE_FIELDS.map((f) => (f === "website" ? constr(0, [bytes(name)]) : constr(1))),
      ]),
    );
  });

  it("sorts items by token-name bytes and refuses empty, repeated, oversize or malformed items", () => {
    const k = "33".repeat(28);
    const sorted = sortBatchItems([
      { tokenName: "6262", itemKeyHash: k },
      { tokenName: "61ff", itemKeyHash: k },
      { tokenName: "61", itemKeyHash: k },
      { tokenName: "6200", itemKeyHash: k },
    ]);
    expect(sorted.map((i) => i.tokenName)).to.deep.equal(["61", "61ff", "6200", "6262"]);
    expect(typeOf(() => sortBatchItems([]))).to.equal("INVALID_FIELD");
    expect(
      typeOf(() =>
        sortBatchItems([
          { tokenName: "61", itemKeyHash: k },
          { tokenName: "61", itemKeyHash: "44".repeat(28) },
        ]),
      ),
    ).to.equal("INVALID_FIELD");
    expect(typeOf(() => sortBatchItems([{ tokenName: "", itemKeyHash: k }]))).to.equal("INVALID_FIELD");
    expect(typeOf(() => sortBatchItems([{ tokenName: "00".repeat(33), itemKeyHash: k }]))).to.equal("INVALID_FIELD");
    expect(typeOf(() => sortBatchItems([{ tokenName: "61", itemKeyHash: "33".repeat(27) }]))).to.equal("INVALID_FIELD");
  });

  it("bounds the batch datum so every claim still fits one transaction", () => {
    const d = (n: number, nameBytes: number): BatchDatum => ({
      batchId: "aa".repeat(32),
      issuer: "11".repeat(28),
      hubPolicy: "22".repeat(28),
      items: Array.from({ length: n }, (_, i) => ({
        tokenName: i.toString(16).padStart(nameBytes * 2, "0"),
        itemKeyHash: "33".repeat(28),
      })),
    });
    expect(MAX_BATCH_DATUM_BYTES).to.equal(14_000);
    expect(checkBatchDatumSize(d(315, 9))).to.be.at.most(14_000);
    expect(typeOf(() => checkBatchDatumSize(d(316, 9)))).to.equal("INVALID_FIELD");
    expect(checkBatchDatumSize(d(204, 32))).to.be.at.most(14_000);
    expect(typeOf(() => checkBatchDatumSize(d(205, 32)))).to.equal("INVALID_FIELD");
  });

  it("refuses profile ciphertexts outside the bounds the validator enforces", () => {
    const base = { owner: "11".repeat(28), batchId: "aa".repeat(32), itemName: "61" };
    expect(MIN_PROFILE_FIELD_BYTES).to.equal(29);
    expect(MAX_PROFILE_FIELD_BYTES).to.equal(664);
    expect(typeOf(() => encodeSocialHubDatum({ ...base, profile: { name: "00".repeat(28) } }))).to.equal("INVALID_FIELD");
    expect(typeOf(() => encodeSocialHubDatum({ ...base, profile: { name: "00".repeat(665) } }))).to.equal("INVALID_FIELD");
    expect(typeOf(() => encodeSocialHubDatum({ ...base, itemName: "", profile: {} }))).to.equal("INVALID_FIELD");
    expect(typeOf(() => encodeSocialHubDatum({ ...base, itemName: "00".repeat(33), profile: {} }))).to.equal("INVALID_FIELD");
    expect(typeOf(() => encodeSocialHubDatum({ ...base, profile: { name: "00".repeat(664), email: "00".repeat(29) } }))).to.equal(
      undefined,
    );
  });

  it("rejects malformed data with typed errors", () => {
    const cases: [() => unknown, string][] = [
      [() => decodeBatchDatum(constr(0, [])), "INVALID_DATUM"],
      [
        () => decodeBatchDatum(constr(0, [bytes("aa".repeat(31)), bytes("11".repeat(28)), bytes("22".repeat(28)), list([])])),
        "INVALID_FIELD",
      ],
      [
        () =>
          decodeBatchDatum(
            constr(0, [bytes("aa".repeat(32)), bytes("11".repeat(28)), bytes("22".repeat(28)), list([constr(0, [bytes("61")])])]),
          ),
        "INVALID_DATUM",
      ],
      [() => decodeSocialHubDatum(constr(0, [bytes("11".repeat(28)), bytes("aa".repeat(32)), bytes("61")])), "INVALID_DATUM"],
      [
        () =>
          decodeSocialHubDatum(
            constr(0, [bytes("11".repeat(28)), bytes("aa".repeat(32)), bytes("61"), ...PROFILE_FIELDS.map(() => constr(2))]),
          ),
        "INVALID_FIELD",
      ],
      [() => decodeGoodsMintRedeemer(constr(2)), "INVALID_REDEEMER"],
      [() => decodeGoodsSpendRedeemer(constr(0)), "INVALID_REDEEMER"],
      [() => decodeHubSpendRedeemer(constr(1, [bytes("00")])), "INVALID_FIELD"],
    ];
    for (const [run, type] of cases) expect(typeOf(run), run.toString()).to.equal(type);
  });
});

describe("connected-goods token names and scripts", () => {
  it("derives the batch id as sha2_256(tx_id ‖ uint16_le(index)) of the seed", () => {
    const txHash = "cd".repeat(32);
    const expected = createHash("sha256")
      .update(Buffer.concat([Buffer.from(txHash, "hex"), Buffer.from([0x03, 0x01])]))
      .digest("hex");
    expect(batchIdOf({ txHash, index: 259 })).to.equal(expected);
    expect(typeOf(() => batchIdOf({ txHash, index: 65_536 }))).to.equal("INVALID_FIELD");
  });

  it("names a hub sha2_256(batch_id ‖ token_name), distinct across batches and items", () => {
    const a = "aa".repeat(32);
    const b = "bb".repeat(32);
    expect(hubTokenNameOf(a, "61")).to.equal(
      createHash("sha256")
        .update(Buffer.from(a + "61", "hex"))
        .digest("hex"),
    );
    const names = new Set([hubTokenNameOf(a, "61"), hubTokenNameOf(a, "62"), hubTokenNameOf(b, "61"), hubTokenNameOf(a, "6162")]);
    expect(names.size).to.equal(4);
    expect(typeOf(() => hubTokenNameOf("aa".repeat(31), "61"))).to.equal("INVALID_FIELD");
    expect(typeOf(() => hubTokenNameOf(a, ""))).to.equal("INVALID_FIELD");
  });

  it("derives the deployment's scripts: connected_goods as built, social_hub applied to its hash", () => {
    const blueprint = loadBlueprint(DEFAULT_BLUEPRINT_PATH);
    const s = deriveConnectedGoodsScripts(blueprint, 0);
    expect(s.connectedGoods.code).to.equal(validatorCode(blueprint, "connected_goods"));
    expect(s.connectedGoods.hash).to.equal(scriptHashOf(s.connectedGoods.code));
    expect(s.socialHub.code).to.equal(applyParams(validatorCode(blueprint, "social_hub"), [bytes(s.connectedGoods.hash)]));
    expect(s.socialHub.policyId).to.equal(s.socialHub.hash);
    expect(s.socialHub.address).to.equal(scriptAddressOf(s.socialHub.hash, 0));
    expect(deriveConnectedGoodsScripts(blueprint, 1).connectedGoods.address).to.match(/^addr1/);
  });
});
