import { expect } from "chai";
import { spawnSync } from "node:child_process";
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

  it("npm run log-key makes a key file for LOG_SIGNER_KEY and prints only its verifier key", () => {
    const dir = mkdtempSync(join(tmpdir(), "log-key-cli-"));
    const keyFile = join(dir, "keys", "log-key");
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ["--import", "tsx", join(__dirname, "..", "..", "scripts", "log-key.ts"), ...args], { encoding: "utf8" });
    const made = run("--origin", origin, "--key-file", keyFile);
    expect(made.status, made.stderr).to.equal(0);
    const printed = JSON.parse(made.stdout) as { created: boolean; verifierKey: string };
    const secret = readFileSync(keyFile, "utf8").trim();
    expect(printed.created).to.equal(true);
    // the key's base64 (after PRIVATE+KEY+<name>+<id>+) may itself hold "+": take all of it
    expect(made.stdout).to.not.include(secret.split("+").slice(4).join("+"));
    expect(statSync(keyFile).mode & 0o777).to.equal(0o600);
    // the file is what LOG_SIGNER_KEY takes, and gives the printed verifier key
    expect(loadOrCreateLogKey({ dataDir: dir, signerKey: secret, origin }).verifierKey).to.equal(printed.verifierKey);
    expect(JSON.parse(run("--origin", origin, "--key-file", keyFile).stdout)).to.deep.include({
      created: false,
      verifierKey: printed.verifierKey,
    });
    expect(run("--origin", "other.test/log", "--key-file", keyFile).status).to.equal(2);
    expect(run("--origin", "with space", "--key-file", keyFile).status).to.equal(2);
    expect(run("--key-file", keyFile).status).to.equal(2);
  });
});
