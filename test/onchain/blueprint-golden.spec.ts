/**
 * The committed blueprints (onchain/plutus.json and plutus-trace.json) are exactly what the sources compile to:
 * every validator is recompiled in its own child process (plu-ts output depends on compile order within one
 * process) and compared byte for byte, so a change in the sources or in the pinned compiler shows up as a
 * changed script hash. The only test that compiles; it takes a minute or two on a busy 2-core machine.
 */
import { readFileSync } from "node:fs";
import { expect } from "chai";
import { BLUEPRINT_PATH, TRACE_BLUEPRINT_PATH, buildBlueprints } from "../../onchain/blueprint-build";
import { VALIDATOR_NAMES } from "../../onchain/validator-names";

interface Entry {
  title: string;
  hash: string;
  compiledCode: string;
}

const entries = (json: string): Entry[] => (JSON.parse(json) as { validators: Entry[] }).validators;

describe("blueprint golden (recompiles every validator)", function () {
  this.timeout(900_000);

  it("the committed plutus.json and plutus-trace.json match a fresh build (run `npm run build:onchain` after changing onchain/)", async () => {
    const built = await buildBlueprints();
    for (const [file, fresh] of [
      [BLUEPRINT_PATH, built.shipped!],
      [TRACE_BLUEPRINT_PATH, built.trace!],
    ] as const) {
      const committed = readFileSync(file, "utf8");
      const hashes = (json: string) => entries(json).map((v) => `${v.title} ${v.hash}`);
      expect(hashes(committed), `script hashes in ${file}`).to.deep.equal(hashes(fresh));
      const validators = new Set(entries(committed).map((v) => v.title.split(".")[0]));
      expect([...validators], `validators in ${file}`).to.deep.equal([...VALIDATOR_NAMES]);
      expect(committed, `${file} byte for byte`).to.equal(fresh);
    }
  });
});
