/**
 * The ledger's language views (shared/csl/script-data.ts `languageViews`) and a transaction's raw script data
 * (`rawScriptData`): BLAKE2b-256 of redeemers ‖ datums ‖ language views, with the first two exactly as the witness
 * set carries them, is the script_data_hash CSL's own `hash_script_data` computes, for every set of languages (V1's
 * quirky encoding included) with and without datums; and the indexer's finder (shared/indexer/anchor-language-views.ts)
 * asks the chain again when the cost models change.
 */
import { expect } from "chai";
import type { ProtocolParameters } from "@cardano-ogmios/schema";
import { CSL } from "../../../shared/csl/lib";
import { costModels } from "../../../shared/csl/protocol-parameters";
import { languageViewCandidates, languageViews, rawScriptData } from "../../../shared/csl/script-data";
import { cslLanguage, type PlutusLanguage } from "../../../shared/csl/plutus-script";
import { blake2b } from "../../../shared/protocol";
import { matchingLanguageViews, scriptDataHashWith } from "../../../shared/merkle";
import { AnchorLanguageViews } from "../../../shared/indexer/anchor-language-views";
import { DATA_42, PP } from "../../../fixtures/csl/fixtures";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

/** A transaction (empty body) whose witness set carries a redeemer and, optionally, a datum. */
function txWithScriptData(withDatums: boolean, scriptDataHash?: string): string {
  const witnesses = CSL.TransactionWitnessSet.new();
  const redeemers = CSL.Redeemers.new();
  redeemers.add(
    CSL.Redeemer.new(
      CSL.RedeemerTag.new_reward(),
      CSL.BigNum.zero(),
      CSL.PlutusData.from_hex(DATA_42),
      CSL.ExUnits.new(CSL.BigNum.from_str("1000"), CSL.BigNum.from_str("100000")),
    ),
  );
  witnesses.set_redeemers(redeemers);
  if (withDatums) {
    const datums = CSL.PlutusList.new();
    datums.add(CSL.PlutusData.from_hex(DATA_42));
    witnesses.set_plutus_data(datums);
  }
  const inputs = CSL.TransactionInputs.new();
  inputs.add(CSL.TransactionInput.new(CSL.TransactionHash.from_bytes(Buffer.alloc(32, 7)), 0));
  const body = CSL.TransactionBody.new_tx_body(inputs, CSL.TransactionOutputs.new(), CSL.BigNum.from_str("200000"));
  if (scriptDataHash) body.set_script_data_hash(CSL.ScriptDataHash.from_hex(scriptDataHash));
  return CSL.Transaction.new(body, witnesses).to_hex();
}

/** CSL's script_data_hash of a transaction's witness set for exactly `languages`. */
function cslHash(txHex: string, languages: readonly PlutusLanguage[]): string {
  const ws = CSL.Transaction.from_hex(txHex).witness_set();
  const langs = CSL.Languages.new();
  for (const l of languages) langs.add(cslLanguage(l));
  const models = costModels(PP).retain_language_versions(langs);
  return CSL.hash_script_data(ws.redeemers()!, models, ws.plutus_data()).to_hex();
}

const LANGUAGE_SETS: PlutusLanguage[][] = [
  ["plutus:v1"],
  ["plutus:v2"],
  ["plutus:v3"],
  ["plutus:v1", "plutus:v2"],
  ["plutus:v1", "plutus:v3"],
  ["plutus:v2", "plutus:v3"],
  ["plutus:v1", "plutus:v2", "plutus:v3"],
];

describe("script data: the ledger's language views and the raw redeemers and datums", () => {
  it("gives CSL's script_data_hash for every set of languages, with and without datums", () => {
    for (const withDatums of [false, true]) {
      const tx = txWithScriptData(withDatums);
      const { redeemers, datums } = rawScriptData(tx);
      expect(redeemers, "redeemers").to.not.equal(undefined);
      expect(datums !== undefined, "datums").to.equal(withDatums);
      for (const set of LANGUAGE_SETS) {
        const views = languageViews(costModels(PP), set);
        const ours = hex(blake2b(Buffer.concat([redeemers!, ...(datums ? [datums] : []), views]), 32));
        expect(ours, `${set.join("+")}${withDatums ? " with datums" : ""}`).to.equal(cslHash(tx, set));
        expect(scriptDataHashWith(tx, views)).to.equal(ours);
      }
    }
  });

  it("encodes V1's key and model as byte strings and its model as an indefinite list, V2 and V3 as plain definite lists", () => {
    const v1 = languageViews(costModels(PP), ["plutus:v1"]);
    expect(hex(v1.subarray(0, 3))).to.equal("a14100"); // { h'00' => …
    const v3 = languageViews(costModels(PP), ["plutus:v3"]);
    expect(hex(v3.subarray(0, 2))).to.equal("a102"); // { 2 => …
    expect(v3[2]! >> 5).to.equal(4); // a definite array
    // keys ordered by their encoding: 01, 02, then 41 00
    const all = languageViews(costModels(PP), ["plutus:v1", "plutus:v3", "plutus:v2"]);
    expect(hex(all.subarray(0, 2))).to.equal("a301");
  });

  it("finds which candidate views reproduce a transaction's script_data_hash", () => {
    const candidates = languageViewCandidates(costModels(PP));
    expect(candidates).to.have.length(7);
    const tx = txWithScriptData(false, cslHash(txWithScriptData(false), ["plutus:v2", "plutus:v3"]));
    expect(matchingLanguageViews(tx, candidates)).to.equal(hex(languageViews(costModels(PP), ["plutus:v2", "plutus:v3"])));
    expect(matchingLanguageViews(txWithScriptData(false), candidates), "no script_data_hash").to.equal(undefined);
  });

  it("the indexer's finder asks for the protocol parameters again when the known cost models reproduce no hash", async () => {
    const changed: ProtocolParameters = {
      ...PP,
      plutusCostModels: {
        ...PP.plutusCostModels,
        "plutus:v3": PP.plutusCostModels!["plutus:v3"]!.map((c, i) => (i === 0 ? Number(c) + 1 : c)),
      },
    };
    let current = PP;
    let asked = 0;
    let clock = 0;
    const finder = new AnchorLanguageViews(
      () => {
        asked++;
        return Promise.resolve(current);
      },
      () => clock,
    );
    const ws = CSL.Transaction.from_hex(txWithScriptData(false)).witness_set();
    const hashUnder = (pp: ProtocolParameters): string => {
      const v3 = CSL.Languages.new();
      v3.add(CSL.Language.new_plutus_v3());
      return CSL.hash_script_data(ws.redeemers()!, costModels(pp).retain_language_versions(v3)).to_hex();
    };

    const underPp = txWithScriptData(false, hashUnder(PP));
    expect(await finder.of(underPp)).to.equal(hex(languageViews(costModels(PP), ["plutus:v3"])));
    expect(await finder.of(underPp)).to.be.a("string");
    expect(asked, "known views reused").to.equal(1);

    current = changed; // the chain's cost models changed
    expect(await finder.of(txWithScriptData(false, hashUnder(changed)))).to.equal(hex(languageViews(costModels(changed), ["plutus:v3"])));
    expect(asked).to.equal(2);

    // A transaction no cost model the chain has reproduces (recorded after a change, catching up): one question,
    // then none for 10 s.
    const stale = txWithScriptData(false, hashUnder(PP).replace(/^../, "00"));
    expect(await finder.of(stale)).to.equal(undefined);
    expect(await finder.of(stale)).to.equal(undefined);
    expect(asked).to.equal(3);
    clock += 10_000;
    expect(await finder.of(stale)).to.equal(undefined);
    expect(asked).to.equal(4);
  });
});
