/**
 * The connected-goods service does no costly key derivation for a caller who has not shown it can pay, within a
 * per-client budget, and stops when the request is gone; its reads are rate-limited. Over HTTP on the embedded mesh with the devnet; derivations are counted by the process's scrypt
 * runner (kdfActivity), clients told apart by X-Forwarded-For behind one trusted proxy.
 */
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { kdfActivity } from "../../shared/extensions/connected-goods";
import type { Wallet } from "../../shared/wallet";
import { newWallet } from "../../fixtures/onchain/test-chain";
import { errorBody, pollUntil, postJson, http, type HttpResult } from "../../fixtures/mesh/helpers";
import type { ProtocolFixture } from "../../fixtures/onchain/protocol-fixture";
import type { RunningMesh } from "../../fixtures/mesh/mesh-harness";
import { startDeployedMesh, type DeployedMesh } from "../support/deployed-mesh";

const ADA = 1_000_000n;
const BURST = 24;
const READS_PER_MINUTE = 4;

/** `n` items with strong random passwords (22 random characters of a–z and 0–9). */
const itemsOf = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    asset_name: `${prefix}-${String(i).padStart(3, "0")}`,
    password: [...randomBytes(22)].map((b) => "abcdefghijklmnopqrstuvwxyz0123456789"[b % 36]).join(""),
  }));

describe("connected goods: key derivations bounded (cheap checks first, per-client budget, cancellation) and reads rate-limited", function () {
  this.timeout(240_000);
  let world: DeployedMesh;
  let f: ProtocolFixture;
  let mesh: RunningMesh;
  let client = 0;
  /** A client of its own: its own derivation budget and read budget. */
  const newClient = () => `198.51.100.${++client}`;

  const mint = (from: string, body: unknown) =>
    postJson(`${mesh.api}/extension/connected-goods/mint/batch`, body, { "X-Forwarded-For": from });
  const read = (from: string, path: string) =>
    http(`${mesh.api}/extension/connected-goods/${path}`, { headers: { "X-Forwarded-For": from } });
  const runs = () => kdfActivity().runs;
  const refused = (res: HttpResult, status: number, error: string) => {
    expect(res.status, res.text).to.equal(status);
    expect(res.headers.get("content-type")).to.match(/^application\/json/);
    expect(errorBody(res).error).to.equal(error);
  };
  const submit = async (wallet: Wallet, unsigned: string): Promise<string> => {
    const res = await postJson(`${mesh.api}/transaction/submit`, { transaction: unsigned, witnessSet: wallet.signTx(unsigned) });
    expect(res.status, res.text).to.equal(200);
    return (res.json as { transactionHash: string }).transactionHash;
  };

  before(async () => {
    world = await startDeployedMesh({
      services: ["gateway", "indexer", "tx-builder", "submitter", "connected-goods"],
      bootstrap: false,
      env: {
        TRUST_PROXY: "1",
        GOODS_KDF_BURST: String(BURST),
        // the devnet's clock stands still unless a test moves it: no refill during the tests
        GOODS_KDF_PER_MINUTE: "6",
        RATE_LIMIT_READ_PER_MINUTE: String(READS_PER_MINUTE),
      },
    });
    ({ f, mesh } = world);
    const res = await postJson(`${mesh.api}/transaction/prepare-collateral`, { senderAddress: f.actors.issuer.address });
    expect(res.status, res.text).to.equal(200);
    const tx = await submit(f.actors.issuer, (res.json as { unsignedTransaction: string }).unsignedTransaction);
    f.chain.devnet.produceBlock();
    await pollUntil(async () => ((await mesh.broker.call("indexer.transaction", { id: tx })) ? true : undefined), "the collateral indexed");
  });
  after(() => world?.close());

  it("derives no key for a mint its wallet cannot pay (400 INSUFFICIENT_FUNDS) and spends none of the client's budget", async () => {
    const from = newClient();
    // a wallet holding its collateral and 3 ADA: the collateral checks pass, the batch output cannot be paid
    const poor = newWallet();
    await f.chain.submit(
      {
        utxos: f.chain.utxosAt(f.actors.alice.address),
        changeAddress: f.actors.alice.address,
        outputs: [
          { address: poor.address, lovelace: 5n * ADA },
          { address: poor.address, lovelace: 3n * ADA },
        ],
      },
      [f.actors.alice],
    );
    const before = runs();
    for (const address of [poor.address, newWallet().address]) {
      const res = await mint(from, { address, items: itemsOf("poor", BURST) });
      refused(res, 400, "INSUFFICIENT_FUNDS");
    }
    expect(runs() - before, "key derivations").to.equal(0);
    // the whole budget is still there: a paid mint of BURST items from the same client is served
    const paid = await mint(from, { address: f.actors.issuer.address, items: itemsOf("paid", BURST) });
    expect(paid.status, paid.text).to.equal(200);
    expect(runs() - before).to.equal(BURST);
  });

  it("refuses a request whose derivations exceed what is left of the client's budget: 429 KDF_BUDGET_EXCEEDED, nothing derived", async () => {
    const from = newClient();
    const first = await mint(from, { address: f.actors.issuer.address, items: itemsOf("first", 16) });
    expect(first.status, first.text).to.equal(200);
    const before = runs();
    const second = await mint(from, { address: f.actors.issuer.address, items: itemsOf("second", 16) });
    refused(second, 429, "KDF_BUDGET_EXCEEDED");
    expect(errorBody(second)).to.include({ needed: 16, available: BURST - 16, burst: BURST, perMinute: 6, retryAfterSeconds: 80 });
    expect(second.headers.get("retry-after")).to.equal("80");
    expect(runs() - before, "key derivations").to.equal(0);
    // a batch larger than the budget can ever hold is a 400 that says so
    refused(await mint(newClient(), { address: f.actors.issuer.address, items: itemsOf("huge", BURST + 1) }), 400, "INVALID_ITEMS");
  });

  it("stops deriving when the client leaves before the answer", async () => {
    const from = newClient();
    const leave = new AbortController();
    const before = runs();
    const pending = fetch(`${mesh.api}/extension/connected-goods/mint/batch`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": from },
      body: JSON.stringify({ address: f.actors.issuer.address, items: itemsOf("gone", BURST) }),
      signal: leave.signal,
    }).catch((err: unknown) => err);
    await pollUntil(async () => (runs() > before ? true : undefined), "the first derivation");
    leave.abort();
    expect(await pending).to.be.instanceOf(Error);
    // the call ends once the derivations running when the client left are done; none starts after
    await pollUntil(async () => (kdfActivity().running === 0 ? true : undefined), "the derivations to stop");
    const ran = runs() - before;
    expect(ran, `derivations of ${BURST}`).to.be.below(BURST / 2);
    // and what it did not use is back in the client's budget
    const again = await mint(from, { address: f.actors.issuer.address, items: itemsOf("again", BURST - ran) });
    expect(again.status, again.text).to.equal(200);
  });

  it("stops deriving when the call times out (its caller has answered 504 and stopped waiting)", async () => {
    const before = runs();
    const body = { address: f.actors.issuer.address, items: itemsOf("late", BURST) };
    const call = mesh.broker.call("connected-goods.mintBatch", body, { timeout: 300, meta: { clientKey: newClient() } });
    const err = (await call.then(
      () => undefined,
      (e: unknown) => e,
    )) as { type?: string } | undefined;
    expect(err?.type).to.equal("REQUEST_TIMEOUT");
    await pollUntil(async () => (kdfActivity().running === 0 ? true : undefined), "the derivations to stop");
    expect(runs() - before, `derivations of ${BURST}`).to.be.below(BURST / 2);
  });

  it(`rate-limits connected-goods reads per client: ${READS_PER_MINUTE} a minute, then 429 RATE_LIMITED`, async () => {
    const from = newClient();
    const path = `${"ef".repeat(32)}/${"01".repeat(32)}`;
    for (let i = 0; i < READS_PER_MINUTE; i++) refused(await read(from, path), 400, "UNKNOWN_BATCH");
    const limited = await read(from, path);
    refused(limited, 429, "RATE_LIMITED");
    expect(Number(limited.headers.get("retry-after"))).to.be.within(1, 60);
    refused(await read(newClient(), path), 400, "UNKNOWN_BATCH");
  });
});
