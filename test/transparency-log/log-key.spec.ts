import { expect } from "chai";
import { chmodSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateKey } from "../../shared/tlog/note";
import { LOG_KEY_FILE, loadOrCreateLogKey } from "../../shared/transparency-log/log-key";

describe("transparency log: the log key", () => {
  const origin = "example.test/log";

  it("is made on first start (0600, named by the origin) and read back the same on the next", () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), "log-key-")), "data");
    const first = loadOrCreateLogKey({ dataDir, signerKey: null, origin });
    expect(first.source).to.equal("created");
    expect(statSync(join(dataDir, LOG_KEY_FILE)).mode & 0o777).to.equal(0o600);
    expect(readFileSync(join(dataDir, LOG_KEY_FILE), "utf8").startsWith(`PRIVATE+KEY+${origin}+`)).to.equal(true);
    const again = loadOrCreateLogKey({ dataDir, signerKey: null, origin });
    expect(again).to.deep.include({ source: "key-file", verifierKey: first.verifierKey });
  });

  it("refuses a key file of another origin, saying what to do, and one others may read", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "log-key-"));
    loadOrCreateLogKey({ dataDir, signerKey: null, origin });
    expect(() => loadOrCreateLogKey({ dataDir, signerKey: null, origin: "other.test/log" })).to.throw(
      /LOG_ORIGIN="other.test\/log": set it back, or move/,
    );
    chmodSync(join(dataDir, LOG_KEY_FILE), 0o644);
    expect(() => loadOrCreateLogKey({ dataDir, signerKey: null, origin })).to.throw(/readable by others/);
  });

  it("takes LOG_SIGNER_KEY when set, never echoing it in a refusal", () => {
    const { signerKey, verifierKey } = generateKey(origin);
    expect(loadOrCreateLogKey({ dataDir: "/nonexistent", signerKey, origin })).to.deep.include({ source: "LOG_SIGNER_KEY", verifierKey });
    const wrong = generateKey("other.test/log").signerKey;
    expect(() => loadOrCreateLogKey({ dataDir: "/nonexistent", signerKey: wrong, origin }))
      .to.throw(/named "other.test\/log"/)
      .with.property("message")
      .that.does.not.include(wrong);
    expect(() => loadOrCreateLogKey({ dataDir: "/nonexistent", signerKey: `${wrong}x`, origin }))
      .to.throw(/not a signed-note signer key/)
      .with.property("message")
      .that.does.not.include(wrong.slice(-20));
  });
});
