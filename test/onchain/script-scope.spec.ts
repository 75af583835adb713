/**
 * Every committed validator (shipped and trace builds) is a closed program: no variable points outside its
 * scope. Cheap (no compile); it guards against a class of silent plu-ts miscompilations that only the ledger's
 * evaluator would report, and only once the script is used on chain.
 */
import { readFileSync } from "node:fs";
import { expect } from "chai";
import { BLUEPRINT_PATH, TRACE_BLUEPRINT_PATH } from "../../onchain/blueprint-build";
import { flatOfCompiledCode, outOfScopeVariables } from "./support/uplc-scope";
import { Application, Lambda, UPLCEncoder, UPLCProgram, UPLCVar, UPLCVersion } from "@harmoniclabs/plu-ts";

describe("compiled validators are closed programs", () => {
  for (const file of [BLUEPRINT_PATH, TRACE_BLUEPRINT_PATH]) {
    const validators = (JSON.parse(readFileSync(file, "utf8")) as { validators: { title: string; compiledCode: string }[] }).validators;
    for (const v of validators) {
      it(`${v.title} in ${file.split("/").pop()}`, () => {
        expect(outOfScopeVariables(flatOfCompiledCode(v.compiledCode))).to.deep.equal([]);
      });
    }
  }

  it("the check finds a variable that points past its lambda", () => {
    const open = new Lambda(new Application(new UPLCVar(0), new UPLCVar(1)));
    const flat = UPLCEncoder.compile(new UPLCProgram(new UPLCVersion(1, 1, 0), open)).toBuffer().buffer;
    expect(outOfScopeVariables(flat)).to.have.length(1);
  });
});
