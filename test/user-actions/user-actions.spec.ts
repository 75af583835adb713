/**
 * The two-step user actions over HTTP with real CIP-30 signatures: USER_INFO after issuing, INVALIDATE_STATE and
 * OPT_OUT answered as burn transactions that the wallet signs and the devnet confirms (funds back in the wallet),
 * every forgery refused with the right status, and GET /user/bootstrap-access.
 */
import { expect } from "chai";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CSL } from "../../shared/csl/lib";
import { userActionMessage } from "../../shared/domain/user-action-message";
import { generateMnemonic, type Wallet } from "../../shared/wallet";
import { coseSign1 } from "../../shared/wallet/data-signature";
import { errorBody, http, pollUntil, postJson, type HttpResult } from "../../fixtures/mesh/helpers";
import type { ProtocolFixture } from "../../fixtures/onchain/protocol-fixture";
import type { RunningMesh } from "../../fixtures/mesh/mesh-harness";
import { startDeployedMesh, type DeployedMesh } from "../support/deployed-mesh";

type Json = Record<string, unknown>;
const hex = (text: string) => Buffer.from(text, "utf8").toString("hex");

describe("user actions: /user/request/action → /user/state/action", function () {
  this.timeout(120_000);
  let f: ProtocolFixture;
  let mesh: RunningMesh;
  let world: DeployedMesh;
  let skewMs = 0;
  /** Every challenge gets its own millisecond: the devnet clock stands still, and equal challenges are one challenge. */
  let tick = 0;

  const step1 = (body: Json) => postJson(`${mesh.api}/user/request/action`, body);
  const step2 = (body: Json) => postJson(`${mesh.api}/user/state/action`, body);
  /** Step 1 for `wallet`, then its signData over the message (the CIP-30 flow of a browser wallet). */
  const signedRequest = async (wallet: Wallet, action: string, stateId?: string): Promise<Json> => {
    tick += 1;
    const res = await step1({ address: wallet.address, action, ...(stateId ? { stateId } : {}) });
    expect(res.status, res.text).to.equal(200);
    const c = res.json as Json;
    const signed = wallet.signData(hex(c["message"] as string), wallet.address);
    return {
      address: wallet.address,
      action,
      ...(stateId ? { stateId } : {}),
      message: c["message"],
      signature: c["signature"],
      timestamp: c["timestamp"],
      userSignature: signed.signature,
      userPublicKey: signed.key,
    };
  };
  const expectRefused = (res: HttpResult, status: number, error: string) => {
    expect(res.status, res.text).to.equal(status);
    const body = res.json as Json;
    expect(body["status"]).to.match(new RegExp(`^${status} [A-Z_]+$`));
    expect(errorBody(res).error).to.equal(error);
    expect(body["unsignedTransaction"] ?? null).to.equal(null);
    expect(body["state"] ?? null).to.equal(null);
  };
  const indexed = (tx: string) =>
    pollUntil(
      async () => ((await mesh.broker.call<unknown, { id: string }>("indexer.transaction", { id: tx })) ? true : undefined),
      `${tx} indexed`,
    );
  const lovelaceOf = (w: Wallet) => f.utxosOf(w).reduce((sum, u) => sum + BigInt(u.value.ada.lovelace), 0n);
  /** Signs and submits an unsigned transaction from the service, confirms it in a block, waits for the indexer. */
  const signSubmitConfirm = async (wallet: Wallet, unsigned: string) => {
    const txId = await f.chain.devnet.submitTransaction(wallet.signTxFull(unsigned));
    f.chain.devnet.produceBlock();
    await indexed(txId);
    return txId;
  };

  /** A dedicated collateral UTxO (the burn runs scripts), made through the tx-builder like a client would. */
  const prepareCollateral = async (wallet: Wallet) => {
    const res = await mesh.broker.call<{ unsignedTransaction: string | null; status: { code: string } }, Json>(
      "tx-builder.prepareCollateral",
      { senderAddress: wallet.address },
    );
    if (res.status.code === "COLLATERAL_ALREADY_AVAILABLE") return;
    expect(res.status.code).to.equal("SUCCESS");
    await signSubmitConfirm(wallet, res.unsignedTransaction!);
  };

  before(async () => {
    world = await startDeployedMesh({
      services: ["gateway", "indexer", "user-state", "tx-builder"],
      env: { USER_ACTION_SIGNING_MNEMONIC: generateMnemonic(), DATA_DIR: mkdtempSync(join(tmpdir(), "user-actions-")) },
      now: (fx) => fx.chain.now() + skewMs + tick,
    });
    ({ f, mesh } = world);
    const forked = await f.mintState(f.actors.alice);
    await indexed(forked.utxo.transaction.id);
  });
  after(() => world?.close());

  it("step 1 answers the challenge message signed by the service", async () => {
    const res = await step1({ address: f.actors.alice.address, action: "USER_INFO" });
    expect(res.status).to.equal(200);
    const body = res.json as Json;
    expect(body).to.include({
      address: f.actors.alice.address,
      action: "USER_INFO",
      status: "200 OK",
      error: null,
      timestamp: f.chain.now() + tick,
    });
    expect(body["message"]).to.equal(
      userActionMessage({ action: "USER_INFO", timestamp: f.chain.now() + tick, address: f.actors.alice.address }),
    );
    expect(body["signature"]).to.match(/^[0-9a-f]{128}$/);
  });

  it("USER_INFO answers the caller's states and the bootstraps it may use, in the spec's shapes", async () => {
    const res = await step2(await signedRequest(f.actors.alice, "USER_INFO"));
    expect(res.status, res.text).to.equal(200);
    const body = res.json as { status: string; state: { states: Json[]; bootstrapDatums: Json[] } };
    expect(body.status).to.equal("200 OK");
    const [stateId] = f.findStateIdsOf(f.actors.alice);
    expect(body.state.states).to.deep.equal([
      {
        id: stateId,
        fee: 4_000_000,
        feeInterval: 3,
        feeReceiverAddresses: [f.actors.feeA.enterpriseAddress, f.actors.feeB.enterpriseAddress],
        ttl: 1_900_000_000_000,
        batchSize: 10,
        countdown: 11,
        bootstrapDatumName: "default",
        version: 2,
      },
    ]);
    expect(body.state.bootstrapDatums).to.deep.equal([
      {
        name: "default",
        whitelistedAddresses: [],
        fee: 4_000_000,
        feeInterval: 3,
        feeReceiverAddresses: [f.actors.feeA.enterpriseAddress, f.actors.feeB.enterpriseAddress],
        ttl: 1_900_000_000_000,
        transactionLimit: 12,
        batchSize: 10,
        version: 2,
      },
    ]);
    const bob = (await step2(await signedRequest(f.actors.bob, "USER_INFO"))).json as { state: { states: Json[] } };
    expect(bob.state.states).to.deep.equal([]);
  });

  it("refuses a replayed challenge", async () => {
    const request = await signedRequest(f.actors.alice, "USER_INFO");
    expect((await step2(request)).status).to.equal(200);
    expectRefused(await step2(request), 409, "CHALLENGE_REPLAYED");
  });

  it("refuses a forged service signature", async () => {
    const request = await signedRequest(f.actors.alice, "USER_INFO");
    const sig = request["signature"] as string;
    expectRefused(await step2({ ...request, signature: (sig[0] === "0" ? "1" : "0") + sig.slice(1) }), 401, "INVALID_SIGNATURE");
    const cose = request["userSignature"] as string;
    const flippedLastByte = (parseInt(cose.slice(-2), 16) ^ 0x01).toString(16).padStart(2, "0");
    expectRefused(await step2({ ...request, userSignature: cose.slice(0, -2) + flippedLastByte }), 401, "INVALID_SIGNATURE");
  });

  it("refuses a COSE key of another wallet, even with the victim's address in the COSE header", async () => {
    const request = await signedRequest(f.actors.alice, "USER_INFO");
    const mallory = CSL.PrivateKey.generate_ed25519();
    const forged = coseSign1(
      mallory,
      CSL.Address.from_bech32(f.actors.alice.address).to_bytes(),
      Buffer.from(request["message"] as string, "utf8"),
    );
    expectRefused(await step2({ ...request, userSignature: forged.signature, userPublicKey: forged.key }), 401, "INVALID_SIGNATURE");
    const bobs = f.actors.bob.signData(hex(request["message"] as string), f.actors.bob.address);
    expectRefused(await step2({ ...request, userSignature: bobs.signature, userPublicKey: bobs.key }), 401, "INVALID_SIGNATURE");
  });

  it("refuses an expired timestamp", async () => {
    const request = await signedRequest(f.actors.alice, "USER_INFO");
    skewMs = 10 * 60_000 + 1;
    try {
      expectRefused(await step2(request), 401, "EXPIRED_CHALLENGE");
    } finally {
      skewMs = 0;
    }
  });

  it("refuses a message for another address", async () => {
    const bobs = await signedRequest(f.actors.bob, "USER_INFO");
    expectRefused(await step2({ ...bobs, address: f.actors.alice.address }), 400, "INVALID_MESSAGE");
    // Alice's own challenge signed by Bob's wallet over Bob's address.
    const alices = await signedRequest(f.actors.alice, "USER_INFO");
    const bobSigned = f.actors.bob.signData(hex(alices["message"] as string), f.actors.bob.address);
    expectRefused(await step2({ ...alices, userSignature: bobSigned.signature, userPublicKey: bobSigned.key }), 401, "INVALID_SIGNATURE");
  });

  it("answers GET /user/bootstrap-access", async () => {
    const access = (address: string, tokenName: string) =>
      http(`${mesh.api}/user/bootstrap-access?address=${address}&tokenName=${tokenName}`);
    expect((await access(f.actors.alice.address, "default")).json).to.equal(true);
    expect((await access(f.actors.alice.address, hex("default"))).json).to.equal(true);
    expect((await access(f.actors.alice.address, "other")).json).to.equal(false);
    expect((await access(f.actors.bob.address, "default")).json).to.equal(false);
    for (const res of [
      await http(`${mesh.api}/user/bootstrap-access?address=${f.actors.alice.address}`),
      await access("addr_nope", "default"),
    ]) {
      expect(res.status).to.equal(400);
      expect(errorBody(res).error).to.be.a("string");
    }
  });

  it("INVALIDATE_STATE takes the state id from the signed message and refuses a state that is not the caller's", async () => {
    const bobState = (await f.mintState(f.actors.bob)).datum.id;
    await indexed(f.findState(bobState).utxo.transaction.id);
    const { stateId: _omitted, ...request } = await signedRequest(f.actors.alice, "INVALIDATE_STATE", bobState);
    void _omitted;
    expectRefused(await step2(request), 404, "STATE_NOT_FOUND");
  });

  it("INVALIDATE_STATE answers the unsigned burn of the state; signed and confirmed, the funds are back", async () => {
    const alice = f.actors.alice;
    const [stateId] = f.findStateIdsOf(alice);
    const locked = BigInt(f.findState(stateId!).utxo.value.ada.lovelace);
    await prepareCollateral(alice);
    const before = lovelaceOf(alice);
    const res = await step2(await signedRequest(alice, "INVALIDATE_STATE", stateId));
    expect(res.status, res.text).to.equal(200);
    const body = res.json as Json;
    expect(body).to.include({ status: "200 OK", error: null });
    expect(body["unsignedTransaction"]).to.be.a("string");
    const txId = await signSubmitConfirm(alice, body["unsignedTransaction"] as string);
    expect(f.findStateIdsOf(alice)).to.deep.equal([]);
    const fee = BigInt((await mesh.broker.call<{ fee: string }, { id: string }>("indexer.transaction", { id: txId })).fee);
    expect(lovelaceOf(alice)).to.equal(before + locked - fee);
    expect(((await step2(await signedRequest(alice, "USER_INFO"))).json as { state: { states: unknown[] } }).state.states).to.deep.equal(
      [],
    );
  });

  it("OPT_OUT answers the burn of every active state; signed and confirmed, none is left", async () => {
    const bob = f.actors.bob;
    await f.mintState(bob, undefined, [bob]);
    const ids = f.findStateIdsOf(bob);
    expect(ids).to.have.length(2);
    await indexed(f.findState(ids[1]!).utxo.transaction.id);
    await indexed(f.findState(ids[0]!).utxo.transaction.id);
    const locked = ids.reduce((sum, id) => sum + BigInt(f.findState(id).utxo.value.ada.lovelace), 0n);
    await prepareCollateral(bob);
    const before = lovelaceOf(bob);
    const res = await step2(await signedRequest(bob, "OPT_OUT"));
    expect(res.status, res.text).to.equal(200);
    expect((res.json as Json)["stateIds"]).to.have.members(ids);
    const txId = await signSubmitConfirm(bob, (res.json as Json)["unsignedTransaction"] as string);
    expect(f.findStateIdsOf(bob)).to.deep.equal([]);
    const fee = BigInt((await mesh.broker.call<{ fee: string }, { id: string }>("indexer.transaction", { id: txId })).fee);
    expect(lovelaceOf(bob)).to.equal(before + locked - fee);
    expectRefused(await step2(await signedRequest(bob, "OPT_OUT")), 404, "NO_ACTIVE_STATE");
  });

  it("answers malformed input on both steps with 4xx JSON carrying status and error", async () => {
    const alice = f.actors.alice.address;
    const bad1: Json[] = [
      {},
      { address: alice },
      { address: alice, action: "user_info" },
      { address: alice, action: "INVALIDATE_STATE" },
      { address: "addr_test1xyz", action: "USER_INFO" },
      { address: 42, action: "USER_INFO" },
    ];
    for (const body of bad1) {
      const res = await step1(body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect((res.json as Json)["status"]).to.equal("400 BAD_REQUEST");
      expect(errorBody(res).error).to.be.a("string");
    }
    const missing = await step1({ address: alice, action: "INVALIDATE_STATE" });
    expect((missing.json as Json)["message"]).to.equal("State ID is required for invalidation.");
    const good = await signedRequest(f.actors.alice, "USER_INFO");
    for (const body of [
      { ...good, userSignature: undefined },
      { ...good, timestamp: "soon" },
      { ...good, timestamp: String(good.timestamp) }, // the integer of step 1, but as a string
      { ...good, action: "DROP" },
      { ...good, signature: "zz" },
    ]) {
      const res = await step2(body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect((res.json as Json)["status"]).to.equal("400 BAD_REQUEST");
    }
    const stringTimestamp = await step2({ ...good, timestamp: String(good.timestamp) });
    expect((stringTimestamp.json as Json)["message"]).to.match(/'timestamp' must be the integer \(a JSON number/);
    // never an unbounded echo: a 200 KB address comes back as null
    const huge = await step1({ address: `addr_test1${"q".repeat(200_000)}`, action: "USER_INFO" });
    expect(huge.status).to.equal(400);
    expect(JSON.stringify(huge.json).length).to.be.below(2_000);
    const notJson = await http(`${mesh.api}/user/state/action`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{nope",
    });
    expect(notJson.status).to.equal(400);
    expect(errorBody(notJson).error).to.equal("MALFORMED_JSON");
  });
});
