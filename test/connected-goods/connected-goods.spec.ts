/**
 * Connected goods over HTTP on the embedded mesh, with real wallets signing and the devnet's ledger and Plutus
 * evaluation: an issuer mints a batch, buyers claim items with their passwords (two in one block, the second built
 * on the first's pending batch output), the social hubs read back decrypted, the owner updates one; wrong passwords,
 * second claims, strangers' updates and malformed requests are refused with 400 JSON.
 */
import { createHash } from "node:crypto";
import { expect } from "chai";
import type { Wallet } from "../../shared/wallet";
import { errorBody, http, pollUntil, postJson, type HttpResult } from "../../fixtures/mesh/helpers";
import type { ProtocolFixture } from "../../fixtures/onchain/protocol-fixture";
import type { RunningMesh } from "../../fixtures/mesh/mesh-harness";
import { startDeployedMesh, type DeployedMesh } from "../support/deployed-mesh";
import { enterpriseAddressOfKeyHash } from "../../shared/csl/address";
import type { BatchFact } from "../../shared/extensions/connected-goods";
import { CSL } from "../../shared/csl/lib";
import { catchUpProjections } from "../../shared/mesh/fact-follower";

type Json = Record<string, unknown>;

/** A batch of 20, as a brand would mint for one product line. */
const ITEMS = Array.from({ length: 20 }, (_, i) => `shoe-${String(i + 1).padStart(4, "0")}`);
const passwordOf = (name: string) => `correct horse ${name} battery`;
const sha256Hex = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

describe("connected goods: mint, claim, update and read over HTTP", function () {
  this.timeout(240_000);
  let world: DeployedMesh;
  let f: ProtocolFixture;
  let mesh: RunningMesh;
  let batchId: string;

  const post = (path: string, body: unknown) => postJson(`${mesh.api}/extension/connected-goods${path}`, body);
  const get = (path: string) => http(`${mesh.api}/extension/connected-goods${path}`);
  const indexed = (tx: string) =>
    pollUntil(
      async () => ((await mesh.broker.call<unknown, { id: string }>("indexer.transaction", { id: tx })) ? true : undefined),
      `${tx} indexed`,
    );
  const txBlock = async (tx: string) =>
    (await mesh.broker.call<{ blockId: string }, { id: string }>("indexer.transaction", { id: tx })).blockId;
  /** Submits through the API with the wallet's witness set merged in, as a client would. */
  const submit = async (wallet: Wallet, unsigned: string): Promise<string> => {
    const res = await postJson(`${mesh.api}/transaction/submit`, { transaction: unsigned, witnessSet: wallet.signTx(unsigned) });
    expect(res.status, res.text).to.equal(200);
    return (res.json as { transactionHash: string }).transactionHash;
  };
  const confirm = async (...txs: string[]) => {
    f.chain.devnet.produceBlock();
    for (const tx of txs) await indexed(tx);
  };
  const refused = (res: HttpResult, error: string) => {
    expect(res.status, res.text).to.equal(400);
    expect(res.headers.get("content-type")).to.match(/^application\/json/);
    expect(errorBody(res).error).to.equal(error);
  };
  const claimBody = (password: string, buyer: Wallet, extra: Json = {}) => ({
    password,
    batch_id: batchId,
    user_address: buyer.address,
    social_hub: { name: `${buyer === f.actors.alice ? "Alice" : "Someone"}'s shoes`, website: "https://example.org/me", x: "@owner" },
    ...extra,
  });
  const batch = () => mesh.broker.call<BatchFact | null, { batchId: string }>("indexer.goodsBatch", { batchId });

  before(async () => {
    world = await startDeployedMesh({
      services: ["gateway", "indexer", "tx-builder", "submitter", "connected-goods", "stats"],
      bootstrap: false,
    });
    ({ f, mesh } = world);
    // every wallet that runs a script needs its dedicated collateral, made through the API like a client would
    const wallets = [f.actors.issuer, f.actors.alice, f.actors.bob, f.actors.feeA];
    const txs: string[] = [];
    for (const w of wallets) {
      const res = await postJson(`${mesh.api}/transaction/prepare-collateral`, { senderAddress: w.address });
      expect(res.status, res.text).to.equal(200);
      txs.push(await submit(w, (res.json as { unsignedTransaction: string }).unsignedTransaction));
    }
    await confirm(...txs);
  });
  after(() => world?.close());

  it("lists connected-goods among the enabled extensions", async () => {
    const res = await http(`${mesh.api}/extensions`);
    expect((res.json as Json)["connected-goods"]).to.equal(true);
  });

  it("builds the mint of a batch whose issuer is the caller's key; signed and submitted, the indexer records it", async () => {
    const issuer = f.actors.issuer;
    const res = await post("/mint/batch", {
      address: issuer.address,
      items: ITEMS.map((n) => ({ asset_name: n, password: passwordOf(n) })),
    });
    expect(res.status, res.text).to.equal(200);
    const body = res.json as Json & { status: { code: string } };
    expect(body.status.code).to.equal("SUCCESS");
    expect(body["batch_id"])
      .to.match(/^[0-9a-f]{64}$/)
      .and.equal(body["batchId"]);
    batchId = body["batch_id"] as string;
    const unsigned = body["unsignedTransaction"] as string;
    for (const n of ITEMS) expect(unsigned.includes(Buffer.from(passwordOf(n)).toString("hex")), "password in the mint").to.equal(false);
    await confirm(await submit(issuer, unsigned));
    const recorded = await batch();
    expect(recorded?.issuer).to.equal(issuer.paymentKeyHash);
    expect(recorded?.items.map((i) => Buffer.from(i.tokenName, "hex").toString("utf8"))).to.deep.equal(ITEMS);
  });

  const claimTxs: string[] = [];

  it("claims three items in one block: item key signed, no password on chain, each claim built on the previous pending batch", async () => {
    const first = await post("/claim/item", claimBody(passwordOf("shoe-0002"), f.actors.alice, { asset_name: "shoe-0002" }));
    expect(first.status, first.text).to.equal(200);
    expect(first.headers.get("content-type")).to.match(/^text\/plain/);
    const tx = Buffer.from(first.text, "hex");
    const pw = passwordOf("shoe-0002");
    for (const secret of [Buffer.from(pw), createHash("sha256").update(pw).digest(), createHash("sha3-256").update(pw).digest()]) {
      expect(tx.includes(secret), "claim bytes contain the password or a hash of it").to.equal(false);
    }
    claimTxs.push(await submit(f.actors.alice, first.text));

    // bob and carol name no item: the service finds it from the password alone
    for (const [name, buyer] of [
      ["shoe-0005", f.actors.bob],
      ["shoe-0003", f.actors.feeA],
    ] as const) {
      const res = await post("/claim/item", claimBody(passwordOf(name), buyer));
      expect(res.status, res.text).to.equal(200);
      claimTxs.push(await submit(buyer, res.text));
    }
    await confirm(...claimTxs);
    const blocks = await Promise.all(claimTxs.map(txBlock));
    expect(new Set(blocks).size, "one block").to.equal(1);
    const left = (await batch())!.items.map((i) => Buffer.from(i.tokenName, "hex").toString("utf8"));
    expect(left).to.deep.equal(ITEMS.filter((n) => !["shoe-0002", "shoe-0003", "shoe-0005"].includes(n)));
  });

  it("reads a hub decrypted, by the SHA-256 of the password or by the password, among several batch ids", async () => {
    const byHash = await get(`/${batchId}/${sha256Hex(passwordOf("shoe-0002"))}`);
    expect(byHash.status, byHash.text).to.equal(200);
    expect(byHash.json).to.deep.include({
      owner: enterpriseAddressOfKeyHash(f.actors.alice.paymentKeyHash, 0),
      batch_id: batchId,
      item_name: "shoe-0002",
      name: "Alice's shoes",
      website: "https://example.org/me",
      x: "@owner",
      picture: "",
      ada_handle: "",
    });
    const other = "ab".repeat(32);
    const byPassword = await get(`/${other},${batchId}/${encodeURIComponent(passwordOf("shoe-0005"))}`);
    expect(byPassword.status, byPassword.text).to.equal(200);
    expect(byPassword.json).to.deep.include({ owner: enterpriseAddressOfKeyHash(f.actors.bob.paymentKeyHash, 0), item_name: "shoe-0005" });
  });

  it("tells an unknown batch from a wrong item id on a hub read: 400 UNKNOWN_BATCH naming the ids, 400 WRONG_PASSWORD", async () => {
    const claimed = sha256Hex(passwordOf("shoe-0002"));
    const [unknownA, unknownB] = ["cd".repeat(32), "ef".repeat(32)];
    const one = await get(`/${unknownA}/${claimed}`);
    refused(one, "UNKNOWN_BATCH");
    expect(errorBody(one).message).to.include(unknownA);
    expect(errorBody(one)["batch_ids"]).to.deep.equal([unknownA]);
    const both = await get(`/${unknownA},${unknownB}/${encodeURIComponent(passwordOf("shoe-0002"))}`);
    refused(both, "UNKNOWN_BATCH");
    expect(errorBody(both)["batch_ids"]).to.deep.equal([unknownA, unknownB]);
    // one known batch among the ids: the item id is what is wrong, and the unknown ids are named
    const wrong = await get(`/${unknownA},${batchId}/${sha256Hex("not the right password")}`);
    refused(wrong, "WRONG_PASSWORD");
    expect(errorBody(wrong)["unknown_batch_ids"]).to.deep.equal([unknownA]);
    refused(await get(`/${batchId}/${sha256Hex("not the right password")}`), "WRONG_PASSWORD");
    // the right item id still opens its hub when an unknown id comes first
    const found = await get(`/${unknownA},${batchId}/${claimed}`);
    expect(found.status, found.text).to.equal(200);
    expect(found.json).to.deep.include({ batch_id: batchId, item_name: "shoe-0002" });
  });

  it("refuses a wrong password, a second claim and an unknown batch with 400 JSON", async () => {
    refused(await post("/claim/item", claimBody("not the right password", f.actors.bob)), "WRONG_PASSWORD");
    refused(await post("/claim/item", claimBody("not the right password", f.actors.bob, { asset_name: "shoe-0001" })), "WRONG_PASSWORD");
    refused(await post("/claim/item", claimBody(passwordOf("shoe-0002"), f.actors.bob)), "ITEM_ALREADY_CLAIMED");
    refused(
      await post("/claim/item", claimBody(passwordOf("shoe-0002"), f.actors.bob, { asset_name: "shoe-0002" })),
      "ITEM_ALREADY_CLAIMED",
    );
    refused(await post("/claim/item", { ...claimBody(passwordOf("shoe-0001"), f.actors.bob), batch_id: "cd".repeat(32) }), "UNKNOWN_BATCH");
    refused(await get(`/${batchId}/${sha256Hex("not the right password")}`), "WRONG_PASSWORD");
    refused(await get(`/${batchId}/${sha256Hex(passwordOf("shoe-0001"))}`), "WRONG_PASSWORD"); // not claimed yet
  });

  it("refuses malformed requests with 400 JSON naming the problem", async () => {
    const buyer = f.actors.bob;
    refused(
      await post("/claim/item", { ...claimBody(passwordOf("shoe-0001"), buyer), social_hub: { website: "javascript:alert(1)" } }),
      "INVALID_SOCIAL_HUB",
    );
    refused(
      await post("/claim/item", { ...claimBody(passwordOf("shoe-0001"), buyer), social_hub: { name: "x".repeat(160) } }),
      "INVALID_SOCIAL_HUB",
    );
    refused(await post("/claim/item", { ...claimBody(passwordOf("shoe-0001"), buyer), social_hub: {} }), "INVALID_SOCIAL_HUB");
    refused(await post("/claim/item", { ...claimBody(passwordOf("shoe-0001"), buyer), user_address: "addr_nonsense" }), "INVALID_ADDRESS");
    refused(await post("/claim/item", { ...claimBody(passwordOf("shoe-0001"), buyer), batch_id: "xyz" }), "INVALID_CONTEXT");
    refused(await post("/claim/item", { ...claimBody("short", buyer) }), "INVALID_PASSWORD");
    const issuer = f.actors.issuer.address;
    refused(await post("/mint/batch", { address: issuer, items: [] }), "INVALID_ITEMS");
    refused(
      await post("/mint/batch", {
        address: issuer,
        items: [
          { asset_name: "a", password: "same password" },
          { asset_name: "b", password: "same password" },
        ],
      }),
      "INVALID_ITEMS",
    );
    refused(
      await post("/mint/batch", { address: issuer, items: [{ asset_name: "n".repeat(33), password: "long enough" }] }),
      "INVALID_ITEMS",
    );
    refused(await get(`/not-a-batch/${sha256Hex("x")}`), "INVALID_CONTEXT");
    // refused, not split: the message gives the limit (checked before any key is derived)
    const huge = Array.from({ length: 250 }, (_, i) => ({
      asset_name: `${"n".repeat(28)}${String(i).padStart(4, "0")}`,
      password: `password ${i}`,
    }));
    const tooLarge = await post("/mint/batch", { address: issuer, items: huge });
    refused(tooLarge, "INVALID_ITEMS");
    expect(errorBody(tooLarge).message).to.match(/limit is 9000 bytes/);
  });

  it("refuses item names, token names and profile fields holding control characters or lone surrogates, naming the field", async () => {
    const issuer = f.actors.issuer.address;
    const mint = (assetName: string, extra: Json = {}) =>
      post("/mint/batch", { address: issuer, items: [{ asset_name: assetName, password: passwordOf("hygiene") }], ...extra });
    for (const [name, what] of [
      ["shoe\u0000", /U\+0000 at character 5/],
      ["\u001b[31mred", /U\+001B at character 1/],
      ["del\u007f", /U\+007F/],
      ["c1\u0085", /U\+0085/],
      ["half \ud800", /lone surrogate U\+D800/],
      ["tab\there", /U\+0009/],
    ] as const) {
      const res = await mint(name);
      refused(res, "INVALID_ITEMS");
      expect(errorBody(res).message).to.match(what).and.to.contain("items[0].asset_name");
      expect(errorBody(res)).to.include({ field: "items[0].asset_name" });
    }
    const token = await mint("ok-name", { token_name: "Shoes\u009b2J" });
    refused(token, "INVALID_TOKEN_NAME");
    expect(errorBody(token)).to.include({ field: "token_name" });
    // the item routes name the item too, and its profile
    const buyer = f.actors.bob;
    const claim = await post("/claim/item", claimBody(passwordOf("shoe-0001"), buyer, { asset_name: "shoe\u0000" }));
    refused(claim, "INVALID_ITEMS");
    expect(errorBody(claim)).to.include({ field: "asset_name" });
    const hub = await post("/claim/item", { ...claimBody(passwordOf("shoe-0001"), buyer), social_hub: { name: "Bob\u0085" } });
    refused(hub, "INVALID_SOCIAL_HUB");
    expect(errorBody(hub)).to.include({ field: "name" });
    const surrogate = await post("/update/item", { ...claimBody(passwordOf("shoe-0001"), buyer), social_hub: { name: "x\udfff" } });
    refused(surrogate, "INVALID_SOCIAL_HUB");
  });

  it("refuses a weak claiming password at mint: 400 WEAK_PASSWORD naming the item and the rule", async () => {
    const items = [
      ...["cap-a", "cap-b"].map((n) => ({ asset_name: n, password: passwordOf(n) })),
      { asset_name: "cap-weak", password: "password1234" },
    ];
    const res = await post("/mint/batch", { address: f.actors.issuer.address, items });
    refused(res, "WEAK_PASSWORD");
    const body = errorBody(res);
    expect(body).to.include({ field: "items[2].password", index: 2, asset_name: "cap-weak", min_bits: 80 });
    expect(body.message).to.contain("cap-weak").and.contain("at least 80").and.contain("docs/connected-goods.md#claiming-passwords");
  });

  it("updates a hub when its owner signs; refuses a stranger's update", async () => {
    const stranger = f.actors.feeA;
    const pw = passwordOf("shoe-0002");
    refused(await post("/update/item", { ...claimBody(pw, stranger), social_hub: { name: "Mine now" } }), "NOT_ITEM_OWNER");
    refused(await post("/update/item", { ...claimBody("not the right password", f.actors.alice) }), "WRONG_PASSWORD");

    const res = await post("/update/item", {
      ...claimBody(pw, f.actors.alice),
      social_hub: { name: "Alice's trail shoes", github: "alice" },
    });
    expect(res.status, res.text).to.equal(200);
    expect(res.headers.get("content-type")).to.match(/^text\/plain/);
    await confirm(await submit(f.actors.alice, res.text));
    const hub = await get(`/${batchId}/${sha256Hex(pw)}`);
    expect(hub.json).to.deep.include({ name: "Alice's trail shoes", github: "alice", website: "", x: "" });
    expect((hub.json as Json)["owner"]).to.equal(enterpriseAddressOfKeyHash(f.actors.alice.paymentKeyHash, 0));
  });

  it("transfers a hub to a new owner when its owner signs; the old owner can no longer update it, the new one can", async () => {
    const pw = passwordOf("shoe-0002");
    const carol = f.actors.feeA;
    const body = { password: pw, batch_id: batchId, user_address: f.actors.bob.address, new_owner_address: carol.address };
    refused(await post("/transfer/item", body), "NOT_ITEM_OWNER");
    const res = await post("/transfer/item", { ...body, user_address: f.actors.alice.address });
    expect(res.status, res.text).to.equal(200);
    await confirm(await submit(f.actors.alice, res.text));
    const hub = await get(`/${batchId}/${sha256Hex(pw)}`);
    expect(hub.json).to.deep.include({ owner: enterpriseAddressOfKeyHash(carol.paymentKeyHash, 0), name: "Alice's trail shoes" });

    refused(await post("/update/item", { ...claimBody(pw, f.actors.alice), social_hub: { name: "Still mine?" } }), "NOT_ITEM_OWNER");
    const update = await post("/update/item", { ...claimBody(pw, carol), social_hub: { name: "Carol's shoes now" } });
    expect(update.status, update.text).to.equal(200);
    await confirm(await submit(carol, update.text));
    expect((await get(`/${batchId}/${sha256Hex(pw)}`)).json).to.deep.include({ name: "Carol's shoes now" });
  });

  it("follows a rollback of a claim: the item is unclaimed again until the claim is re-included", async () => {
    const pw = passwordOf("shoe-0001");
    const res = await post("/claim/item", claimBody(pw, f.actors.bob, { asset_name: "shoe-0001" }));
    expect(res.status, res.text).to.equal(200);
    await confirm(await submit(f.actors.bob, res.text));
    expect((await get(`/${batchId}/${sha256Hex(pw)}`)).status).to.equal(200);
    const names = async () => ((await batch())?.items ?? []).map((i) => Buffer.from(i.tokenName, "hex").toString("utf8"));
    expect(await names()).to.not.include("shoe-0001");

    f.chain.devnet.rollback(1);
    await pollUntil(async () => ((await names()).includes("shoe-0001") ? true : undefined), "claim rolled back");
    refused(await get(`/${batchId}/${sha256Hex(pw)}`), "WRONG_PASSWORD");

    f.chain.devnet.produceBlock(); // the rolled-back claim went back to the mempool
    await pollUntil(async () => ((await names()).includes("shoe-0001") ? undefined : true), "claim re-included");
    expect((await get(`/${batchId}/${sha256Hex(pw)}`)).json).to.deep.include({
      owner: enterpriseAddressOfKeyHash(f.actors.bob.paymentKeyHash, 0),
    });
  });

  it("two claims built on the same batch output before either is submitted: the second submit is refused (409), its rebuild chains", async () => {
    const a = await post("/claim/item", claimBody(passwordOf("shoe-0004"), f.actors.alice, { asset_name: "shoe-0004" }));
    const b = await post("/claim/item", claimBody(passwordOf("shoe-0006"), f.actors.bob, { asset_name: "shoe-0006" }));
    expect([a.status, b.status]).to.deep.equal([200, 200]);
    const first = await submit(f.actors.alice, a.text);
    const late = await postJson(`${mesh.api}/transaction/submit`, { transaction: b.text, witnessSet: f.actors.bob.signTx(b.text) });
    expect(late.status, late.text).to.equal(409);
    expect(errorBody(late).error).to.equal("INPUTS_IN_FLIGHT");
    const again = await post("/claim/item", claimBody(passwordOf("shoe-0006"), f.actors.bob, { asset_name: "shoe-0006" }));
    expect(again.status, again.text).to.equal(200);
    const second = await submit(f.actors.bob, again.text);
    await confirm(first, second);
    expect(await txBlock(first)).to.equal(await txBlock(second));
    const left = (await batch())!.items.map((i) => Buffer.from(i.tokenName, "hex").toString("utf8"));
    expect(left).to.not.include.members(["shoe-0004", "shoe-0006"]);
  });

  it("claims from a batch whose mint is still waiting for its block: mint and claim land in the same block", async () => {
    const issuer = f.actors.issuer;
    const names = ["cap-0001", "cap-0002"];
    const mint = await post("/mint/batch", {
      address: issuer.address,
      items: names.map((n) => ({ asset_name: n, password: passwordOf(n) })),
    });
    expect(mint.status, mint.text).to.equal(200);
    const minted = mint.json as { batch_id: string; unsignedTransaction: string };
    const mintTx = await submit(issuer, minted.unsignedTransaction);
    const res = await post("/claim/item", { ...claimBody(passwordOf("cap-0002"), f.actors.alice), batch_id: minted.batch_id });
    expect(res.status, res.text).to.equal(200);
    const claimTx = await submit(f.actors.alice, res.text);
    await confirm(mintTx, claimTx);
    expect(await txBlock(mintTx)).to.equal(await txBlock(claimTx));
    const hub = await get(`/${batchId},${minted.batch_id}/${sha256Hex(passwordOf("cap-0002"))}`);
    expect(hub.json).to.deep.include({ batch_id: minted.batch_id, item_name: "cap-0002" });
  });

  const txFee = (cbor: string) => BigInt(CSL.Transaction.from_hex(cbor).body().fee().to_str());
  const stats = async () => {
    await catchUpProjections(mesh.broker);
    const cats = (await http(`${mesh.api}/statistic/certificate/by-category`)).json as Record<string, number>;
    const fees = (await http(`${mesh.api}/statistic/tx-fees`)).json as number;
    return { goods: cats["Connected Goods"]!, fees: BigInt(fees) };
  };

  it("names the batch token with token_name: CIP-25 metadata of the mint (the token's own name is the batch id); refuses a name that cannot be metadata", async () => {
    const issuer = f.actors.issuer;
    const items = [{ asset_name: "tag-0001", password: passwordOf("tag-0001") }];
    const tokenName = "Trail cap – 2026 edition";
    const res = await post("/mint/batch", { address: issuer.address, items, token_name: tokenName });
    expect(res.status, res.text).to.equal(200);
    const body = res.json as { batch_id: string; token_name: string; unsignedTransaction: string };
    expect(body.token_name).to.equal(tokenName);
    const tx = CSL.Transaction.from_hex(body.unsignedTransaction);
    const cip25 = tx.auxiliary_data()?.metadata()?.get(CSL.BigNum.from_str("721"));
    expect(cip25, "label 721").to.not.equal(undefined);
    const json = JSON.parse(CSL.decode_metadatum_to_json_str(cip25!, CSL.MetadataJsonSchema.DetailedSchema)) as {
      map: {
        k: { bytes?: string; string?: string };
        v: { map?: { k: { bytes: string }; v: { map: { k: { string: string }; v: { string: string } }[] } }[]; int?: number };
      }[];
    };
    const byPolicy = json.map.find((e) => e.k.bytes !== undefined)!;
    const goodsPolicy = tx.body().mint()!.keys().get(0).to_hex();
    expect(byPolicy.k.bytes).to.equal(goodsPolicy);
    const asset = byPolicy.v.map![0]!;
    expect(asset.k.bytes, "keyed by the batch token's on-chain name, the batch id").to.equal(body.batch_id);
    expect(asset.v.map).to.deep.equal([{ k: { string: "name" }, v: { string: tokenName } }]);
    expect(json.map.find((e) => e.k.string === "version")?.v.int).to.equal(2);
    // the ledger accepts it (the metadata hash is in the body the issuer signs)
    const minted = await submit(issuer, body.unsignedTransaction);
    await confirm(minted);
    expect(
      (await mesh.broker.call<BatchFact | null, { batchId: string }>("indexer.goodsBatch", { batchId: body.batch_id }))?.items,
    ).to.have.length(1);

    // without token_name (or with an empty one) the mint carries no metadata
    const plain = await post("/mint/batch", { address: issuer.address, items, token_name: "" });
    expect(plain.status, plain.text).to.equal(200);
    expect(CSL.Transaction.from_hex((plain.json as { unsignedTransaction: string }).unsignedTransaction).auxiliary_data()).to.equal(
      undefined,
    );
    expect(plain.json).to.not.have.property("token_name");

    const tooLong = await post("/mint/batch", { address: issuer.address, items, token_name: "é".repeat(33) });
    refused(tooLong, "INVALID_TOKEN_NAME");
    expect(errorBody(tooLong).message).to.match(/66 bytes .* limit is 64/);
    refused(await post("/mint/batch", { address: issuer.address, items, token_name: 42 }), "INVALID_TOKEN_NAME");
    refused(await post("/mint/batch", { address: issuer.address, items, token_name: "line\nbreak" }), "INVALID_TOKEN_NAME");
  });

  it("counts every batch mint and claim in the statistics' Connected Goods and their fees once each; a rolled-back claim until it is back", async () => {
    const issuer = f.actors.issuer;
    const before = await stats();
    const mint = await post("/mint/batch", {
      address: issuer.address,
      items: ["sock-0001", "sock-0002"].map((n) => ({ asset_name: n, password: passwordOf(n) })),
    });
    expect(mint.status, mint.text).to.equal(200);
    const minted = mint.json as { batch_id: string; unsignedTransaction: string };
    await confirm(await submit(issuer, minted.unsignedTransaction));
    const mintFee = txFee(minted.unsignedTransaction);
    expect(await stats()).to.deep.equal({ goods: before.goods + 1, fees: before.fees + mintFee });

    const claim = await post("/claim/item", { ...claimBody(passwordOf("sock-0001"), f.actors.bob), batch_id: minted.batch_id });
    expect(claim.status, claim.text).to.equal(200);
    await confirm(await submit(f.actors.bob, claim.text));
    const claimFee = txFee(claim.text);
    const claimed = { goods: before.goods + 2, fees: before.fees + mintFee + claimFee };
    expect(await stats()).to.deep.equal(claimed);

    // an update of the hub is neither a batch nor a certificate: not counted
    const update = await post("/update/item", {
      ...claimBody(passwordOf("sock-0001"), f.actors.bob),
      batch_id: minted.batch_id,
      social_hub: { name: "Bob's socks" },
    });
    expect(update.status, update.text).to.equal(200);
    await confirm(await submit(f.actors.bob, update.text));
    expect(await stats()).to.deep.equal(claimed);

    const open = async () =>
      (await mesh.broker.call<BatchFact | null, { batchId: string }>("indexer.goodsBatch", { batchId: minted.batch_id }))?.items.length;
    f.chain.devnet.rollback(2); // the update's block and the claim's
    await pollUntil(async () => ((await open()) === 2 ? true : undefined), "claim rolled back");
    expect(await stats()).to.deep.equal({ goods: before.goods + 1, fees: before.fees + mintFee });
    f.chain.devnet.produceBlock(); // both go back from the mempool
    await pollUntil(async () => ((await open()) === 1 ? true : undefined), "claim re-included");
    expect(await stats()).to.deep.equal(claimed);
  });
});
