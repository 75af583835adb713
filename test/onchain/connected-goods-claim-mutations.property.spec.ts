/**
 * Property: every random single mutation of a valid claim (the recreated batch's datum, value and address, the
 * hub token's amount, name and place, the hub datum, the signatures) is rejected in phase 2, while the unmutated
 * claim is accepted. Runs against the shipped build, and against the trace build where a named rule must be what
 * failed (not a crash on malformed data).
 */
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import fc from "fast-check";
import { type Data, bytes, constr } from "../../shared/protocol";
import { type BatchItem, encodeBatchDatum } from "../../shared/extensions/connected-goods/batch-datum";
import { type SocialHubDatum, encodeSocialHubDatum } from "../../shared/extensions/connected-goods/social-hub-datum";
import { hubTokenNameOf } from "../../shared/extensions/connected-goods/goods-token-names";
import type { Spec } from "../../fixtures/onchain/test-chain";
import { GoodsFixture, failedRules, type BatchUtxo, type TestItem } from "../../fixtures/onchain/goods-fixture";

const big = (_k: string, v: unknown) => (typeof v === "bigint" ? v.toString() : v);

type Mutation =
  | { kind: "dropOther"; index: number }
  | { kind: "rekeyOther"; index: number; keyHash: string }
  | { kind: "renameOther"; index: number; byte: number }
  | { kind: "swap"; i: number; j: number }
  | { kind: "duplicate"; index: number }
  | { kind: "keepClaimed" }
  | { kind: "datumField"; field: "batchId" | "issuer" | "hubPolicy"; value: string }
  | { kind: "batchLovelace"; delta: bigint }
  | { kind: "batchAddress"; to: "claimer" | "restaked" }
  | { kind: "hubAmount"; amount: bigint }
  | { kind: "hubName"; name: string }
  | { kind: "hubToClaimer" }
  | { kind: "hubDatum"; field: "itemName" | "batchId" | "owner"; value: string }
  | { kind: "hubOversize"; bytes: number }
  | { kind: "dropItemKey" }
  | { kind: "otherItemKey"; index: number };

const hex = (n: number) => fc.uint8Array({ minLength: n, maxLength: n }).map((b) => Buffer.from(b).toString("hex"));
/** indexes into the 7 items left besides the claimed one */
const other = fc.nat({ max: 6 });

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("dropOther" as const), index: other }),
  fc.record({ kind: fc.constant("rekeyOther" as const), index: other, keyHash: hex(28) }),
  fc.record({ kind: fc.constant("renameOther" as const), index: other, byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant("swap" as const), i: other, j: other }).filter((m) => m.i !== m.j),
  fc.record({ kind: fc.constant("duplicate" as const), index: other }),
  fc.constant({ kind: "keepClaimed" as const }),
  fc.record({ kind: fc.constant("datumField" as const), field: fc.constant("batchId" as const), value: hex(32) }),
  fc.record({ kind: fc.constant("datumField" as const), field: fc.constantFrom("issuer" as const, "hubPolicy" as const), value: hex(28) }),
  fc.record({
    kind: fc.constant("batchLovelace" as const),
    delta: fc.oneof(fc.bigInt({ min: -150_000n, max: -1n }), fc.bigInt({ min: 1n, max: 5_000_000n })),
  }),
  fc.record({ kind: fc.constant("batchAddress" as const), to: fc.constantFrom("claimer" as const, "restaked" as const) }),
  fc.record({ kind: fc.constant("hubAmount" as const), amount: fc.bigInt({ min: 2n, max: 5n }) }),
  fc.record({ kind: fc.constant("hubName" as const), name: hex(32) }),
  fc.constant({ kind: "hubToClaimer" as const }),
  fc.record({ kind: fc.constant("hubDatum" as const), field: fc.constant("batchId" as const), value: hex(32) }),
  fc.record({ kind: fc.constant("hubDatum" as const), field: fc.constant("itemName" as const), value: hex(9) }),
  fc.record({ kind: fc.constant("hubDatum" as const), field: fc.constant("owner" as const), value: hex(28) }),
  fc.record({ kind: fc.constant("hubOversize" as const), bytes: fc.integer({ min: 665, max: 900 }) }),
  fc.constant({ kind: "dropItemKey" as const }),
  fc.record({ kind: fc.constant("otherItemKey" as const), index: other }),
);

for (const kind of ["shipped", "trace"] as const) {
  describe(`property: mutated claims are rejected (${kind} build)`, function () {
    this.timeout(300_000);
    let f: GoodsFixture;
    let batch: BatchUtxo;
    let items: TestItem[];
    let claimed: TestItem;
    let others: TestItem[];

    before(async () => {
      f = await GoodsFixture.create(kind);
      ({ batch, items } = await f.mintBatch(f.actors.issuer, 8, 8, "bag"));
      claimed = items[3]!;
      others = items.filter((x) => x !== claimed);
    });

    function specFor(m: Mutation | undefined): Spec {
      const { alice } = f.actors;
      const d = batch.datum;
      const name = hubTokenNameOf(d.batchId, claimed.tokenName);
      const lovelace = BigInt(batch.utxo.value.ada.lovelace);
      let remaining = (its: readonly BatchItem[]): readonly BatchItem[] => its.filter((x) => x.tokenName !== claimed.tokenName);
      const over: Parameters<GoodsFixture["claimSpec"]>[3] = {};
      const edit = (i: number, g: (x: BatchItem) => BatchItem) => (its: readonly BatchItem[]) =>
        its.filter((x) => x.tokenName !== claimed.tokenName).map((x, k) => (k === i ? g(x) : x));
      switch (m?.kind) {
        case "dropOther":
          remaining = (its) => its.filter((x) => x.tokenName !== claimed.tokenName).filter((_, k) => k !== m.index);
          break;
        case "rekeyOther":
          remaining = edit(m.index, (x) => ({ ...x, itemKeyHash: m.keyHash }));
          break;
        case "renameOther":
          remaining = edit(m.index, (x) => ({ ...x, tokenName: x.tokenName + m.byte.toString(16).padStart(2, "0") }));
          break;
        case "swap":
          remaining = (its) => {
            const r = [...its.filter((x) => x.tokenName !== claimed.tokenName)];
            [r[m.i], r[m.j]] = [r[m.j]!, r[m.i]!];
            return r;
          };
          break;
        case "duplicate":
          remaining = (its) => {
            const r = [...its.filter((x) => x.tokenName !== claimed.tokenName)];
            r.splice(m.index, 0, r[m.index]!);
            return r;
          };
          break;
        case "keepClaimed":
          remaining = (its) => its;
          break;
        case "datumField":
        case "batchLovelace":
        case "batchAddress":
          break;
        case "hubAmount":
          over.hubAssets = { [name]: m.amount };
          over.hubOutput = { assets: { [f.hubPolicy]: { [name]: m.amount } } };
          break;
        case "hubName":
          over.hubAssets = { [m.name]: 1n };
          over.hubOutput = { assets: { [f.hubPolicy]: { [m.name]: 1n } } };
          break;
        case "hubToClaimer":
          over.hubOutput = { address: alice.address };
          break;
        case "hubDatum":
          over.hubDatum = (h: SocialHubDatum) => ({ ...h, [m.field]: m.value });
          break;
        case "hubOversize":
          // the encoder refuses oversize fields, so write the Data directly (field 9 is youtube)
          over.hubDatum = (h: SocialHubDatum) => {
            const fields = (encodeSocialHubDatum(h) as unknown as { fields: Data[] }).fields;
            return constr(
              0,
              fields.map((x, i) => (i === 9 ? constr(0, [bytes(randomBytes(m.bytes).toString("hex"))]) : x)),
            );
          };
          break;
        case "dropItemKey":
          over.signers = [alice.paymentKeyHash];
          break;
        case "otherItemKey":
          over.signers = [others[m.index]!.itemKeyHash, alice.paymentKeyHash];
          break;
        case undefined:
          break;
      }
      over.remaining = remaining;
      if (m?.kind === "datumField") over.batchDatum = encodeBatchDatum({ ...d, items: remaining(d.items), [m.field]: m.value });
      if (m?.kind === "batchLovelace") over.batchOutput = { lovelace: lovelace + m.delta };
      if (m?.kind === "batchAddress") over.batchOutput = { address: m.to === "claimer" ? alice.address : f.goodsAddressStakedBy(alice) };
      return f.claimSpec(batch, claimed, alice, over);
    }

    it("accepts the unmutated claim (control)", async () => {
      const spec = specFor(undefined);
      const { cborHex } = await f.chain.buildSigned(spec, f.signersOf(spec, f.actors.alice));
      const budgets = await f.chain.devnet.evaluateTransaction(cborHex);
      expect(budgets).to.have.length(2);
    });

    it("rejects every single random mutation", async () => {
      await fc.assert(
        fc.asyncProperty(mutation, async (m) => {
          const spec = specFor(m);
          const err = await f.chain.expectPhase2Rejection(spec, f.signersOf(spec, f.actors.alice));
          if (kind === "trace")
            expect(
              failedRules(String((err.data as { mismatchReason?: string }).mismatchReason)),
              JSON.stringify(m, big),
            ).to.have.length.above(0);
        }),
        { numRuns: 40 },
      );
    });
  });
}
