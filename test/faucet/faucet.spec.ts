/**
 * The faucet over HTTP on the devnet: a new wallet asks, signs the challenge with CIP-30 signData, and receives
 * FAUCET_UTXO_COUNT × FAUCET_UTXO_AMOUNT_LOVELACE from the faucet wallet; the cooldown holds per payment credential;
 * two claims in one block both land (chained); each payment is announced in the event log (`transaction.submitted`,
 * like every transaction the service sends); the faucet is off when configured so and never on mainnet.
 */
import { expect } from "chai";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDevnetServer, type DevnetServer } from "../../shared/devnet";
import { faucetGenesisFunds, faucetWallet } from "../../shared/faucet/faucet-wallet";
import { ConfigError, loadConfig } from "../../shared/config/config";
import { createStore, type Store } from "../../shared/store";
import { generateMnemonic, Wallet } from "../../shared/wallet";
import { errorBody, pollUntil, postJson, testConfig, type HttpResult } from "../../fixtures/mesh/helpers";
import type { PublicEvent } from "../../shared/events/event-types";
import { TestChain } from "../../fixtures/onchain/test-chain";
import { startMesh, type RunningMesh } from "../../fixtures/mesh/mesh-harness";

type Json = Record<string, unknown>;
const hex = (text: string) => Buffer.from(text, "utf8").toString("hex");

describe("faucet: /faucet/request → /faucet/claim", function () {
  this.timeout(60_000);
  const faucetMnemonic = generateMnemonic();
  let chain: TestChain;
  let server: DevnetServer;
  let store: Store;
  let mesh: RunningMesh;
  let skewMs = 0;
  let tick = 0;
  const env = (over: Record<string, string> = {}) => ({
    FAUCET_MNEMONIC: faucetMnemonic,
    FAUCET_UTXO_COUNT: "2",
    FAUCET_UTXO_AMOUNT_LOVELACE: "7000000",
    FAUCET_COOLDOWN_MS: "120000",
    USER_ACTION_SIGNING_MNEMONIC: generateMnemonic(),
    DATA_DIR: mkdtempSync(join(tmpdir(), "faucet-")),
    ...over,
  });
  const request = (address: unknown) => postJson(`${mesh.api}/faucet/request`, { address });
  const claimBody = async (wallet: Wallet): Promise<Json> => {
    tick += 1;
    const res = await request(wallet.address);
    expect(res.status, res.text).to.equal(200);
    const c = res.json as Json;
    const signed = wallet.signData(hex(c["message"] as string), wallet.address);
    return {
      address: wallet.address,
      message: c["message"],
      signature: c["signature"],
      timestamp: c["timestamp"],
      userSignature: signed.signature,
      userPublicKey: signed.key,
    };
  };
  const claim = (body: Json) => postJson(`${mesh.api}/faucet/claim`, body);
  const fundsOf = (w: Wallet) => chain.utxosAt(w.address).map((u) => BigInt(u.value.ada.lovelace));
  const expectRefused = (res: HttpResult, status: number, error: string) => {
    expect(res.status, res.text).to.equal(status);
    expect((res.json as Json)["status"]).to.match(new RegExp(`^${status} [A-Z_]+$`));
    expect(errorBody(res).error).to.equal(error);
  };

  before(async () => {
    chain = await TestChain.create([Wallet.fromMnemonic(faucetMnemonic)], 1_000_000_000n);
    server = await startDevnetServer(chain.devnet, { port: 0 });
    store = await createStore({ inMemory: true });
    mesh = await startMesh({
      services: ["gateway", "user-state", "events"],
      store,
      chain: { ogmiosUrl: server.url, network: "devnet", devnet: chain.devnet },
      env: env(),
      now: () => chain.now() + skewMs + tick,
    });
  });
  after(async () => {
    await mesh?.stop();
    await store?.close();
    await server?.close();
    await chain?.devnet.close();
  });

  it("funds a new wallet with the configured outputs once the signed challenge comes back", async () => {
    const newcomer = Wallet.fromMnemonic(generateMnemonic());
    const res = await claim(await claimBody(newcomer));
    expect(res.status, res.text).to.equal(200);
    const body = res.json as Json;
    expect(body).to.include({ status: "200 OK", error: null, lovelace: "14000000" });
    expect(body["txHash"]).to.match(/^[0-9a-f]{64}$/);
    chain.devnet.produceBlock();
    expect(fundsOf(newcomer)).to.deep.equal([7_000_000n, 7_000_000n]);
    expect(chain.utxosAt(newcomer.address).every((u) => u.transaction.id === body["txHash"])).to.equal(true);
    // announced like a submission through the submitter: the events service then follows it to its confirmations
    const submitted = await pollUntil(async () => {
      const page = await mesh.broker.call<{ events: PublicEvent[] }, Json>("events.after", {
        after: "0",
        types: ["transaction.submitted"],
        subjects: [`transaction:${String(body["txHash"])}`],
      });
      return page.events[0];
    }, "the faucet payment's transaction.submitted");
    expect(submitted.data).to.deep.include({ transactionHash: body["txHash"] });
    expect((submitted.data as { inFlightUntil: number }).inFlightUntil).to.be.greaterThan(0);
    expect(submitted.subjects).to.deep.equal([`transaction:${String(body["txHash"])}`]);
  });

  it("enforces the cooldown per payment credential, on request and on claim, until it has passed", async () => {
    const w = Wallet.fromMnemonic(generateMnemonic());
    const first = await claimBody(w);
    expect((await claim(first)).status).to.equal(200);
    expectRefused(await request(w.address), 429, "FAUCET_COOLDOWN");
    expectRefused(await request(w.enterpriseAddress), 429, "FAUCET_COOLDOWN"); // same payment credential
    expectRefused(await claim(first), 429, "FAUCET_COOLDOWN");
    skewMs += 120_001;
    const again = await claim(await claimBody(w));
    expect(again.status, again.text).to.equal(200);
    chain.devnet.produceBlock();
    expect(fundsOf(w)).to.have.length(4);
  });

  it("pays two wallets claiming before the next block (the second claim chains on the first)", async () => {
    const [a, b] = [Wallet.fromMnemonic(generateMnemonic()), Wallet.fromMnemonic(generateMnemonic())];
    const [ra, rb] = [await claim(await claimBody(a)), await claim(await claimBody(b))];
    expect([ra.status, rb.status], `${ra.text} ${rb.text}`).to.deep.equal([200, 200]);
    chain.devnet.produceBlock();
    expect(fundsOf(a)).to.deep.equal([7_000_000n, 7_000_000n]);
    expect(fundsOf(b)).to.deep.equal([7_000_000n, 7_000_000n]);
  });

  it("refuses forged or outdated signatures and malformed input", async () => {
    const w = Wallet.fromMnemonic(generateMnemonic());
    const good = await claimBody(w);
    const other = Wallet.fromMnemonic(generateMnemonic()).signData(hex(good["message"] as string));
    expectRefused(await claim({ ...good, userSignature: other.signature, userPublicKey: other.key }), 401, "INVALID_SIGNATURE");
    expectRefused(await claim({ ...good, signature: "00".repeat(64) }), 401, "INVALID_SIGNATURE");
    skewMs += 11 * 60_000;
    expectRefused(await claim(good), 401, "EXPIRED_CHALLENGE");
    expect(fundsOf(w)).to.deep.equal([]);
    for (const body of [{}, { ...good, address: "nope" }, { ...good, timestamp: -1 }, { ...good, userPublicKey: 7 }]) {
      const res = await claim(body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect((res.json as Json)["status"]).to.equal("400 BAD_REQUEST");
    }
    expectRefused(
      await request("addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgse35a3x"),
      400,
      "INVALID_ADDRESS",
    );
  });

  it("limits claims per client IP and pays at most the daily budget in total, whatever the number of new wallets", async () => {
    // behind one trusted proxy: the client is the rightmost X-Forwarded-For entry, whatever the client wrote left of it
    const ownStore = await createStore({ inMemory: true }); // a fresh day: no claims counted yet
    const limited = await startMesh({
      services: ["gateway", "user-state"],
      store: ownStore,
      chain: { ogmiosUrl: server.url, network: "devnet", devnet: chain.devnet },
      env: env({ TRUST_PROXY: "1", FAUCET_CLAIMS_PER_IP_PER_DAY: "2", FAUCET_DAILY_BUDGET_LOVELACE: "42000000" }),
      now: () => chain.now() + skewMs + tick,
    });
    const from = (ip: string, spoofed = "") => ({ "X-Forwarded-For": `${spoofed}${ip}` });
    const claimFrom = async (ip: string, spoofed = "") => {
      const w = Wallet.fromMnemonic(generateMnemonic());
      tick += 1;
      const c = (await postJson(`${limited.api}/faucet/request`, { address: w.address }, from(ip, spoofed))).json as Json;
      const signed = w.signData(hex(c["message"] as string), w.address);
      const body = {
        address: w.address,
        message: c["message"],
        signature: c["signature"],
        timestamp: c["timestamp"],
        userSignature: signed.signature,
        userPublicKey: signed.key,
      };
      return postJson(`${limited.api}/faucet/claim`, body, from(ip, spoofed));
    };
    try {
      expect((await claimFrom("198.51.100.1")).status).to.equal(200);
      expect((await claimFrom("198.51.100.1", "10.9.9.9, ")).status, "a spoofed left entry changes nothing").to.equal(200);
      expectRefused(await claimFrom("198.51.100.1", "10.8.8.8, "), 429, "FAUCET_IP_LIMIT");
      const other = await claimFrom("198.51.100.2");
      expect(other.status, `another client may claim: ${other.text}`).to.equal(200);
      // 3 claims × 14 ADA = the 42 ADA budget of the day, shared by every client
      expectRefused(await claimFrom("198.51.100.3"), 429, "FAUCET_DAILY_BUDGET");
    } finally {
      await limited.stop();
      await ownStore.close();
    }
    chain.devnet.produceBlock();
  });

  it("is off when FAUCET_ENABLED=false, and cannot be enabled on mainnet", async () => {
    const off = await startMesh({
      services: ["gateway", "user-state"],
      store,
      chain: { ogmiosUrl: server.url, network: "devnet", devnet: chain.devnet },
      env: env({ FAUCET_ENABLED: "false" }),
    });
    try {
      const res = await postJson(`${off.api}/faucet/request`, { address: Wallet.fromMnemonic(generateMnemonic()).address });
      expectRefused(res, 403, "FAUCET_DISABLED");
    } finally {
      await off.stop();
    }
    expect(loadConfig({ OGMIOS_URL: "ws://node:1337", NETWORK: "mainnet" }).faucet.enabled).to.equal(false);
    expect(() => loadConfig({ OGMIOS_URL: "ws://node:1337", NETWORK: "mainnet", FAUCET_ENABLED: "true" })).to.throw(
      ConfigError,
      "not allowed on mainnet",
    );
  });

  it("on the embedded devnet without a mnemonic, uses a key file under DATA_DIR that start funds at genesis", () => {
    const config = testConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), "faucet-key-")) });
    const wallet = faucetWallet(config)!;
    expect(faucetWallet(config)!.address, "the same wallet on every start").to.equal(wallet.address);
    expect(faucetGenesisFunds(config)).to.deep.equal([{ address: wallet.address, lovelace: 100_000_000_000n }]);
    expect(faucetGenesisFunds(testConfig({ DATA_DIR: config.dataDir, FAUCET_ENABLED: "false" }))).to.deep.equal([]);
    expect(faucetWallet(testConfig({ OGMIOS_URL: "ws://node:1337", NETWORK: "preprod" }))).to.equal(null);
  });
});
