/**
 * A calendar round that cannot anchor is an operator's business: the calendar logs a warning naming the reason
 * (here the service wallet holds nothing to pay with), and the hashes wait for the next round.
 */
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { CaptureLogger } from "../../fixtures/mesh/capture-logger";
import { pollUntil, postJson } from "../../fixtures/mesh/helpers";
import { IssuanceWorld, ISSUANCE_SERVICES } from "../../fixtures/issuance/issuance-world";
import { createStore } from "../../shared/store";
import { generateMnemonic } from "../../shared/wallet";

describe("merkle calendar: a failed round is a warning with its reason", function () {
  this.timeout(120_000);
  const logs = new CaptureLogger("info");
  let w: IssuanceWorld;

  before(async () => {
    // a service wallet nobody funded: the round's anchoring transaction cannot be paid
    w = await IssuanceWorld.create(
      [...ISSUANCE_SERVICES, "calendar"],
      { SERVICE_MNEMONIC: generateMnemonic(), BATCH_INTERVAL_MS: "500" },
      () => createStore({ inMemory: true }),
      { logger: logs },
    );
    await w.mintDefaultBootstrap();
  });
  after(() => w?.close());

  it("warns 'calendar round failed' with the reason in `message`, and logs no error", async () => {
    const hash = randomBytes(32).toString("hex");
    const submitted = await postJson(`${w.mesh.api}/batch/submit`, { hashes: [hash] });
    expect(submitted.status, submitted.text).to.equal(202);
    const warning = await pollUntil(
      async () => logs.lines.find((l) => l.startsWith("warn calendar calendar round failed; the next round anchors the log's checkpoint")),
      "the calendar's warning",
    );
    const facts = JSON.parse(warning.slice(warning.indexOf("{"))) as { message?: unknown };
    expect(facts.message, warning)
      .to.be.a("string")
      .and.match(/service wallet|funds|UTxO|lovelace/i);
    expect(logs.lines.filter((l) => l.startsWith("error "))).to.deep.equal([]);
  });
});
