import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { run } from "../../../scripts/wallet";
import { buildPayment, mergeWitnesses, txIdOf, vkeySignatures } from "../../../shared/csl";
import { WalletError, generateMnemonic, verifyDataSignature } from "../../../shared/wallet";
import { PP, aUtxo } from "../../../fixtures/csl/fixtures";

const REPO = resolve(__dirname, "..", "..", "..");

describe("scripts/wallet.ts: command-line wallet", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "wallet-cli-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("create writes an owner-only key file and prints only public data", () => {
    const keyFile = join(dir, "me.json");
    const out = run(["create", "--key-file", keyFile]) as Record<string, string>;
    expect(out["address"]).to.match(/^addr_test1q/);
    const secret = JSON.parse(readFileSync(keyFile, "utf8")) as { mnemonic: string };
    expect(secret.mnemonic.split(" ")).to.have.length(24);
    expect(JSON.stringify(out)).to.not.include(secret.mnemonic.split(" ").slice(0, 3).join(" "));
    expect(statSync(keyFile).mode & 0o777).to.equal(0o600);
    expect(run(["address", "--key-file", keyFile])).to.deep.include({ address: out["address"] });
  });

  it("create makes the key file's folder when it is new, readable by its owner only (the README's .keys/)", () => {
    const keyFile = join(dir, ".keys", "me.json");
    const out = run(["create", "--key-file", keyFile]) as Record<string, string>;
    expect(out["address"]).to.match(/^addr_test1q/);
    expect(statSync(join(dir, ".keys")).mode & 0o777).to.equal(0o700);
    expect(statSync(keyFile).mode & 0o777).to.equal(0o600);
  });

  it("refuses to overwrite an existing key file unless --overwrite", () => {
    const keyFile = join(dir, "me.json");
    run(["create", "--key-file", keyFile]);
    expect(() => run(["create", "--key-file", keyFile]))
      .to.throw(WalletError)
      .with.property("type", "KEY_FILE_EXISTS");
    const again = run(["create", "--key-file", keyFile, "--overwrite"]) as Record<string, string>;
    expect(again["address"]).to.match(/^addr_test1/);
  });

  it("restore reads the mnemonic from stdin; show-mnemonic needs --reveal-secret", () => {
    const m = generateMnemonic();
    const keyFile = join(dir, "restored.json");
    const out = run(["restore", "--key-file", keyFile, "--network", "1"], () => m) as Record<string, unknown>;
    expect(out["address"]).to.match(/^addr1q/);
    expect(() => run(["show-mnemonic", "--key-file", keyFile])).to.throw(/--reveal-secret/);
    expect(run(["show-mnemonic", "--key-file", keyFile, "--reveal-secret"])).to.deep.equal({ mnemonic: m });
    expect(() => run(["restore", "--key-file", join(dir, "bad.json")], () => "not a mnemonic"))
      .to.throw(WalletError)
      .with.property("type", "INVALID_MNEMONIC");
  });

  it("sign-tx returns a CIP-30 witness set (or the full tx with --full) over the unchanged body", () => {
    const keyFile = join(dir, "me.json");
    const me = run(["create", "--key-file", keyFile]) as Record<string, string>;
    const built = buildPayment({
      protocolParameters: PP,
      utxos: [aUtxo({ address: me["address"]!, lovelace: 10_000_000n })],
      changeAddress: me["address"]!,
      outputs: [{ address: me["enterpriseAddress"]!, lovelace: 2_000_000n }],
    });
    const { witnessSet } = run(["sign-tx", "--key-file", keyFile, "--tx", built.cborHex]) as { witnessSet: string };
    const merged = mergeWitnesses(built.cborHex, witnessSet);
    expect(vkeySignatures(merged)).to.deep.equal([
      { publicKey: vkeySignatures(merged)[0]!.publicKey, keyHash: me["paymentKeyHash"], valid: true },
    ]);
    const { transaction } = run(["sign-tx", "--key-file", keyFile, "--full"], () => built.cborHex) as { transaction: string };
    expect(transaction).to.equal(merged);
    expect(txIdOf(transaction)).to.equal(built.txId);
  });

  it("sign-data and verify-data round-trip a message (CIP-30 signData)", () => {
    const keyFile = join(dir, "me.json");
    const me = run(["create", "--key-file", keyFile]) as Record<string, string>;
    const sig = run(["sign-data", "--key-file", keyFile, "--message", "hello anchor"]) as { signature: string; key: string };
    const payloadHex = Buffer.from("hello anchor").toString("hex");
    expect(verifyDataSignature({ ...sig, payloadHex, address: me["address"]! })).to.equal(true);
    expect(
      run(["verify-data", "--signature", sig.signature, "--key", sig.key, "--address", me["address"]!, "--message", "hello anchor"]),
    ).to.deep.equal({ valid: true });
    expect(
      run(["verify-data", "--signature", sig.signature, "--key", sig.key, "--address", me["address"]!, "--message", "hello anchoR"]),
    ).to.deep.equal({ valid: false });
  });

  it("as a process: JSON on stdout, typed JSON errors on stderr with exit code 1", () => {
    const keyFile = join(dir, "me.json");
    writeFileSync(keyFile, "{}");
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, ["--import", "tsx", "scripts/wallet.ts", ...args], { cwd: REPO, encoding: "utf8", timeout: 30_000 });
    const bad = cli("address", "--key-file", keyFile);
    expect(bad.status).to.equal(1);
    expect(JSON.parse(bad.stderr.split("\n")[0]!)).to.include({ error: "KEY_FILE_UNREADABLE" });
    const usage = cli("frobnicate");
    expect(usage.status).to.equal(1);
    expect(usage.stderr).to.include("usage: npm run wallet");
    const created = cli("create", "--key-file", join(dir, "new.json"));
    expect(created.status, created.stderr).to.equal(0);
    expect(JSON.parse(created.stdout)).to.have.property("address");
  });
});
