/** Reading lookup data from Ogmios transaction JSON: native scripts, redeemer pointers of every purpose. */
import { expect } from "chai";
import type { Transaction } from "@cardano-ogmios/schema";
import { CSL } from "../../shared/csl/lib";
import { nativeScriptFromOgmios } from "../../shared/csl/native-script";
import { scriptRewardAddress } from "../../shared/csl/plutus-script";
import { nativeScriptCliJson, seenScript, transactionLookupData } from "../../shared/lookups/transaction-scripts";

const KEY = "ab".repeat(28);
const SCRIPT_A = "01".repeat(28);
const SCRIPT_B = "02".repeat(28);
const UNIT = "d87980"; // Constr 0 []

describe("lookups: transaction data from Ogmios JSON", () => {
  it("answers native scripts in the cardano-cli JSON form with their real hash", () => {
    const json = {
      clause: "all",
      from: [
        { clause: "signature", from: KEY },
        { clause: "before", slot: 99 },
        { clause: "some", atLeast: 1n, from: [{ clause: "after", slot: 5 }] },
      ],
    } as const;
    expect(nativeScriptCliJson(json as never)).to.deep.equal({
      type: "all",
      scripts: [
        { type: "sig", keyHash: KEY },
        { type: "before", slot: 99 },
        { type: "atLeast", required: 1, scripts: [{ type: "after", slot: 5 }] },
      ],
    });
    const seen = seenScript({ language: "native", json: json as never });
    expect(seen.type).to.equal("timelock");
    expect(seen.hash).to.equal(
      nativeScriptFromOgmios(json as never)
        .hash()
        .to_hex(),
    );
    expect(CSL.NativeScript.from_hex(seen.cbor).hash().to_hex()).to.equal(seen.hash);
  });

  it("resolves redeemer pointers: sorted inputs, sorted policies, ledger-ordered reward accounts", () => {
    const tx = {
      id: "ff".repeat(32),
      spends: "inputs",
      inputs: [
        { transaction: { id: "bb".repeat(32) }, index: 0 },
        { transaction: { id: "aa".repeat(32) }, index: 1 },
      ],
      outputs: [
        {
          address: "addr_test1vz4l2w3mx5gdv5gtkwdrmsksdx8ga3ukfn2wlmwvvq0uvuqq0hnhh",
          value: { ada: { lovelace: 2_000_000n } },
          datum: UNIT,
        },
      ],
      mint: { [SCRIPT_B]: { "": 1n }, [SCRIPT_A]: { "": 1n } },
      withdrawals: {
        [scriptRewardAddress(SCRIPT_B, 0)]: { ada: { lovelace: 0n } },
        [scriptRewardAddress(SCRIPT_A, 0)]: { ada: { lovelace: 0n } },
      },
      signatories: [],
      redeemers: [
        { validator: { purpose: "spend", index: 0 }, redeemer: UNIT, executionUnits: { memory: 10, cpu: 20 } },
        { validator: { purpose: "mint", index: 1 }, redeemer: UNIT, executionUnits: { memory: 1, cpu: 2 } },
        { validator: { purpose: "withdraw", index: 0 }, redeemer: UNIT, executionUnits: { memory: 3, cpu: 4 } },
      ],
    } as unknown as Transaction;
    const data = transactionLookupData(tx);
    expect(data.redeemers.map((r) => [r.tag, r.index, r.scriptHash, r.spentRef])).to.deep.equal(
      [
        ["spend", 0, null, `${"aa".repeat(32)}#1`],
        ["mint", 1, SCRIPT_B],
        ["reward", 0, SCRIPT_A],
      ].map((x) => (x.length === 3 ? [...x, null] : x)),
    );
    expect(data.datums).to.have.length(1);
    expect(data.outputs[0]).to.include({ ref: `${"ff".repeat(32)}#0`, datum: UNIT, datumHash: data.datums[0]!.hash });
    expect(data.redeemers[0]).to.include({ mem: 10n, steps: 20n });
  });
});
