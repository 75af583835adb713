import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { expect } from "chai";
import * as CSL from "@emurgo/cardano-serialization-lib-nodejs";
import { withFreed } from "../../../shared/csl/scope";

const MB = 1024 * 1024;
const SCRIPT = join(__dirname, "support", "wasm-growth.ts");

/** Bytes CSL's wasm memory grew over `calls` synchronous calls of a scenario, measured in a fresh process. */
function wasmGrowth(scenario: string, calls: number): number {
  return Number(execFileSync(process.execPath, ["--import", "tsx", SCRIPT, scenario, String(calls)], { encoding: "utf8" }));
}

describe("csl: the helpers of the indexer and lookup paths free their wasm objects", () => {
  it("the measure sees a leak: the datum hash without freeing grows CSL's wasm memory by > 1 MB over 200 calls", () => {
    expect(wasmGrowth("unfreedDatumHash", 200)).to.be.greaterThan(MB);
  });

  it("datumHashOf of a 10-certificate redeemer: wasm memory flat (≤ 1 MB) over 20,000 synchronous calls", () => {
    expect(wasmGrowth("datumHashOf", 20_000)).to.be.at.most(MB);
  });

  it("transactionLookupData and every address, script and Plutus-data helper: wasm memory flat (≤ 1 MB) over 1,000 rounds", () => {
    expect(wasmGrowth("helpers", 1_000)).to.be.at.most(MB);
  });

  it("withFreed frees what it owns, also on a throw, and skips an object a by-value call consumed", () => {
    let kept: CSL.BigNum | undefined;
    expect(() =>
      withFreed((own) => {
        kept = own(CSL.BigNum.from_str("7"));
        throw new Error("boom");
      }),
    ).to.throw("boom");
    expect(() => kept!.to_str()).to.throw(/null pointer/);

    const count = withFreed((own) => {
      const languages = own(CSL.Languages.new());
      languages.add(own(CSL.Language.new_plutus_v3())); // `add` takes the language by value
      return languages.len();
    });
    expect(count).to.equal(1);
  });
});
