import { expect } from "chai";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import { prepareDevnetFirstStart } from "../../shared/first-start/devnet-first-start";
import { devnetProtocolConfig, genesisTxIdOf, serviceGenesisFunds } from "../../shared/first-start/devnet-deployment";
import { loadOrCreateServiceWallet, SERVICE_WALLET_FILE } from "../../shared/first-start/service-wallet";
import { Devnet } from "../../shared/devnet";
import { generateMnemonic, Wallet } from "../../shared/wallet";
import { testConfig } from "../../fixtures/mesh/helpers";

describe("bootstrap: service wallet and the devnet deployment fixed before start", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "bootstrap-"))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("creates the service wallet key file once, owner-only, and loads the same wallet on the next start", () => {
    const first = loadOrCreateServiceWallet({ dataDir: dir, mnemonic: null });
    expect(first.source).to.equal("created");
    const file = join(dir, SERVICE_WALLET_FILE);
    expect(statSync(file).mode & 0o777).to.equal(0o600);
    const again = loadOrCreateServiceWallet({ dataDir: dir, mnemonic: null });
    expect(again.source).to.equal("key-file");
    expect(again.wallet.address).to.equal(first.wallet.address);
    // the mnemonic is only in the file, never in what the caller may print
    const mnemonic = (JSON.parse(readFileSync(file, "utf8")) as { mnemonic: string }).mnemonic;
    const printed = `${JSON.stringify(first)} ${inspect(first, { depth: 5 })} ${String(first.wallet)}`;
    expect(printed).to.not.contain(mnemonic.split(" ").slice(0, 4).join(" "));
  });

  it("uses SERVICE_MNEMONIC when set and writes no key file", () => {
    const mnemonic = generateMnemonic();
    const sw = loadOrCreateServiceWallet({ dataDir: dir, mnemonic });
    expect(sw).to.include({ source: "SERVICE_MNEMONIC", keyFile: null });
    expect(sw.wallet.address).to.equal(Wallet.fromMnemonic(mnemonic).address);
    expect(() => statSync(join(dir, SERVICE_WALLET_FILE))).to.throw();
  });

  it("derives the one-shot as the wallet's genesis output: exactly the UTxO the devnet creates", async () => {
    const wallet = Wallet.fromMnemonic(generateMnemonic());
    const devnet = await Devnet.create({ genesis: serviceGenesisFunds(wallet) });
    try {
      const atBase = devnet.queryUtxo({ addresses: [wallet.address] });
      expect(atBase).to.have.length(1);
      const protocol = devnetProtocolConfig(wallet);
      expect(protocol.proxyOneShot).to.deep.equal({ txHash: atBase[0]!.transaction.id, index: atBase[0]!.index });
      expect(genesisTxIdOf(wallet.address)).to.equal(atBase[0]!.transaction.id);
      expect(protocol).to.deep.include({ serviceKeyHash: wallet.paymentKeyHash, bootstrapAdministrators: [wallet.paymentKeyHash] });
      expect(devnet.queryUtxo({ addresses: [wallet.enterpriseAddress] }), "the reserve is a second UTxO of the same key").to.have.length(1);
    } finally {
      await devnet.close();
    }
  });

  it("prepares a new chain: genesis funds (plus extra ones) and the deployment in the config", () => {
    const user = Wallet.fromMnemonic(generateMnemonic());
    const prep = prepareDevnetFirstStart(testConfig({ DATA_DIR: dir }), [{ address: user.address, lovelace: 42_000_000n }]);
    expect(prep.kind).to.equal("ready");
    if (prep.kind !== "ready") return;
    expect(prep.newChain).to.equal(true);
    expect(prep.genesis!.map((g) => g.address)).to.deep.equal([
      prep.service.wallet.address,
      prep.service.wallet.enterpriseAddress,
      user.address,
    ]);
    expect(prep.config.protocol).to.deep.equal(devnetProtocolConfig(prep.service.wallet));
    expect(prep.config.serviceAddress).to.equal(prep.service.wallet.address);
  });

  it("keeps a stored chain's own genesis on restart, with the same deployment", async () => {
    const first = prepareDevnetFirstStart(testConfig({ DATA_DIR: dir }));
    if (first.kind !== "ready") throw new Error(first.kind);
    const devnet = await Devnet.create({ dataDir: join(dir, "devnet"), genesis: first.genesis! });
    await devnet.close();
    const second = prepareDevnetFirstStart(testConfig({ DATA_DIR: dir }));
    expect(second.kind).to.equal("ready");
    if (second.kind !== "ready") return;
    expect(second.newChain).to.equal(false);
    expect(second.genesis).to.equal(undefined);
    expect(second.config.protocol).to.deep.equal(first.config.protocol);
  });

  it("refuses to bootstrap a stored chain that does not fund the service wallet, and says what to do", () => {
    mkdirSync(join(dir, "devnet"), { recursive: true });
    const other = Wallet.fromMnemonic(generateMnemonic());
    writeFileSync(
      join(dir, "devnet", "chain.json"),
      JSON.stringify({ systemStartMs: 0, genesis: [{ address: other.address, lovelace: "1000000" }] }),
    );
    const prep = prepareDevnetFirstStart(testConfig({ DATA_DIR: dir }));
    expect(prep.kind).to.equal("unfunded-chain");
    expect(prep.config.protocol).to.equal(null);
    if (prep.kind === "unfunded-chain") expect(prep.reason).to.contain("delete that folder");
  });

  it("does not apply with OGMIOS_URL, a configured deployment, or DEVNET_BOOTSTRAP=false", () => {
    const keyHash = "ab".repeat(28);
    const envs: Record<string, string>[] = [
      { OGMIOS_URL: "ws://127.0.0.1:1337", NETWORK: "preview" },
      { PROXY_TX_HASH: "cd".repeat(32), SERVICE_KEY_HASH: keyHash },
      { DEVNET_BOOTSTRAP: "false" },
    ];
    for (const env of envs) {
      const prep = prepareDevnetFirstStart(testConfig({ DATA_DIR: dir, ...env }));
      expect(prep.kind, JSON.stringify(env)).to.equal("not-applicable");
    }
    expect(() => statSync(join(dir, SERVICE_WALLET_FILE)), "no wallet created when not applicable").to.throw();
  });
});
