/**
 * Issue #5's core through HTTP on the embedded mesh over a deployed protocol: collateral, bootstrap creation,
 * fork on first use, updates with the fee paid exactly when due, ten consecutive builds before any confirmation,
 * cheaper bootstrap, exhausted state, burn, verification of every issued hash.
 */
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { decodeTx } from "../../shared/csl";
import type { Wallet } from "../../shared/wallet";
import { http, pollUntil } from "../../fixtures/mesh/helpers";
import { newWallet } from "../../fixtures/onchain/test-chain";
import { IssuanceWorld } from "../../fixtures/issuance/issuance-world";

const ADA = 1_000_000n;
const cert = (metadata: unknown = { uv_tid: "notary" }) => ({ hash: randomBytes(32).toString("hex"), metadata });

describe("issuance: certificate transactions built over HTTP, signed and landed", function () {
  this.timeout(180_000);
  let w: IssuanceWorld;
  const issued: string[] = [];
  let alice: Wallet;
  let service: Wallet;
  const farFuture = 1_900_000_000_000;

  const stateOf = async (owner: Wallet) =>
    w.mesh.broker.call<{ stateId: string; countdown: string; bootstrapName: string }[], { owner: string }>("indexer.states", {
      owner: owner.paymentKeyHash,
    });
  const feePaid = (unsigned: string, to: Wallet) =>
    decodeTx(unsigned)
      .outputs.filter((o) => o.address === to.enterpriseAddress)
      .map((o) => BigInt(o.value.ada.lovelace));
  const bootstrapBody = (name: string, over: Record<string, unknown> = {}) => ({
    type: "BOOTSTRAP",
    address: service.address,
    bootstrap_datum: {
      name,
      whitelisted_addresses: [],
      fee: 2_000_000,
      fee_interval: 3,
      fee_receiver_addresses: [w.f.actors.feeA.address, w.f.actors.feeB.address],
      ttl: farFuture,
      transaction_limit: 15,
      batch_size: 4,
      ...over,
    },
  });
  const createBootstrap = async (name: string, over: Record<string, unknown> = {}) => {
    await w.issue(bootstrapBody(name, over), [service]);
    await pollUntil(
      async () => ((await w.mesh.broker.call<unknown[], { name: string }>("indexer.bootstraps", { name })).length === 1 ? true : undefined),
      `bootstrap ${name}`,
    );
  };

  before(async () => {
    w = await IssuanceWorld.create();
    alice = w.f.actors.alice;
    service = w.f.actors.service;
  });
  after(async () => w?.close());

  it("prepare-collateral builds a 5 ADA split once, then answers COLLATERAL_ALREADY_AVAILABLE", async () => {
    const first = await w.prepareCollateral(alice.address);
    expect(first.status).to.equal(200);
    expect(first.body.status.code).to.equal("SUCCESS");
    expect(
      decodeTx(first.body.unsignedTransaction!).outputs.some(
        (o) => o.address === alice.address && BigInt(o.value.ada.lovelace) === 5n * ADA,
      ),
    ).to.equal(true);
    await w.confirm(await w.signAndSubmit(first.body.unsignedTransaction!, [alice]));
    const again = await w.prepareCollateral(alice.address);
    expect(again.status).to.equal(200);
    expect(again.body).to.deep.include({ unsignedTransaction: null });
    expect(again.body.status.code).to.equal("COLLATERAL_ALREADY_AVAILABLE");
  });

  it("builds a bootstrap datum signed by an administrator, and refuses a duplicate name (confirmed or pending) or a non-administrator", async () => {
    await w.ensureCollateral(service);
    await createBootstrap("standard");
    const dup = await w.build(bootstrapBody("standard"));
    expect(dup.status).to.equal(400);
    expect(dup.body.status).to.deep.include({ code: "ERROR" });
    expect(dup.body.status.message).to.match(/already exists/);
    // a bootstrap still in the mempool holds its name too (names are unique only through this check)
    const members = { whitelisted_addresses: [w.f.actors.issuer.address] };
    const first = await w.build(bootstrapBody("racing", members));
    expect(first.status).to.equal(200);
    const racingTx = await w.signAndSubmit(first.body.unsignedTransaction!, [service]);
    const racing = await w.build(bootstrapBody("racing", members));
    expect(racing.status).to.equal(400);
    expect(racing.body.status.code).to.equal("ERROR");
    expect(racing.body.status.message).to.equal(
      `Bootstrap datum with name "racing" already exists in transaction ${racingTx}, which is not confirmed yet; choose another name.`,
    );
    await w.confirm(racingTx);
    const notAdmin = await w.build({ ...bootstrapBody("mine"), address: alice.address });
    expect(notAdmin.body.status.code).to.equal("ERROR");
    expect(notAdmin.body.status.message).to.match(/administrator/);
  });

  it("answers COLLATERAL_REQUIRED for a certificate build without a dedicated collateral", async () => {
    const res = await w.build({ address: w.f.actors.bob.address, certificates: [cert()] });
    expect(res.status).to.equal(400);
    expect(res.body.status.code).to.equal("COLLATERAL_REQUIRED");
    expect(res.body.status.message).to.match(/prepare-collateral/);
  });

  it("forks a state on first use and pays the fee on the fork (limit 15 % interval 3 == 0)", async () => {
    const c = cert();
    const res = await w.build({ type: "default", address: alice.address, certificates: [c] });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.type).to.equal("default");
    expect(res.body.status.message).to.match(/forked/);
    expect(feePaid(res.body.unsignedTransaction!, w.f.actors.feeA)).to.deep.equal([1n * ADA]);
    expect(feePaid(res.body.unsignedTransaction!, w.f.actors.feeB)).to.deep.equal([1n * ADA]);
    await w.confirm(await w.signAndSubmit(res.body.unsignedTransaction!, [alice]));
    issued.push(c.hash);
    const states = await pollUntil(async () => ((await stateOf(alice)).length === 1 ? stateOf(alice) : undefined), "alice's state");
    expect(states[0]).to.include({ countdown: "14", bootstrapName: "standard" });
  });

  it("lands ten consecutive builds for one wallet before any confirmation, paying the fee exactly on every third update", async () => {
    const fees: bigint[][] = [];
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const c = cert({ n: i });
      const res = await w.build({ address: alice.address, certificates: [c] });
      expect(res.status, `build ${i}: ${JSON.stringify(res.body.status)}`).to.equal(200);
      expect(res.body.status.message).to.match(/updated/);
      fees.push(feePaid(res.body.unsignedTransaction!, w.f.actors.feeA));
      ids.push(await w.signAndSubmit(res.body.unsignedTransaction!, [alice]));
      issued.push(c.hash);
    }
    // countdowns spent: 14..5 → fee due when spending 12, 9, 6
    expect(fees.map((f) => f.length)).to.deep.equal([0, 0, 1, 0, 0, 1, 0, 0, 1, 0]);
    await w.confirm(ids[9]!);
    for (const id of ids) expect((await http(`${w.mesh.api}/transaction/confirm/${id}`)).status, id).to.equal(200);
    const [state] = await pollUntil(async () => ((await stateOf(alice))[0]?.countdown === "4" ? stateOf(alice) : undefined), "countdown 4");
    expect(state).to.include({ countdown: "4" });
  });

  it("issues a batch up to batchSize and rejects a larger one with a clear 400", async () => {
    const batch = [cert(), cert(), cert(), cert()];
    await w.issue({ address: alice.address, certificates: batch }, [alice]);
    issued.push(...batch.map((c) => c.hash));
    const tooMany = await w.build({ address: alice.address, certificates: [cert(), cert(), cert(), cert(), cert()] });
    expect(tooMany.status).to.equal(400);
    expect(tooMany.body.status.code).to.equal("ERROR");
    expect(tooMany.body.status.message).to.match(/batch size/);
  });

  it("forks from a cheaper bootstrap when the current state owes a fee", async () => {
    // alice's state is at countdown 3: spending it owes the fee (3 % 3 == 0)
    // cheap: 2 ADA every 5 transactions (40 ADA per 100) beats standard's 2 ADA every 3; its fork pays (5 % 5 == 0)
    await createBootstrap("cheap", { fee: 2_000_000, fee_interval: 5, transaction_limit: 5 });
    const res = await w.build({ address: alice.address, certificates: [cert()] });
    expect(res.status).to.equal(200);
    expect(res.body.status.message).to.match(/forked/);
    const minted = Object.keys((decodeTx(res.body.unsignedTransaction!).mint as Record<string, Record<string, bigint>>)[w.f.policy] ?? {});
    expect(minted).to.have.length(1);
    expect(feePaid(res.body.unsignedTransaction!, w.f.actors.feeA)).to.deep.equal([1n * ADA]);
    await w.confirm(await w.signAndSubmit(res.body.unsignedTransaction!, [alice]));
    await pollUntil(async () => ((await stateOf(alice)).length === 2 ? true : undefined), "two states");
  });

  it("forks a new state once the chosen bootstrap's state is exhausted (custom with bootstrapDatum.name)", async () => {
    await createBootstrap("single", { fee: 0, transaction_limit: 1 });
    const first = await w.issue({ type: "custom", address: alice.address, certificates: [cert()], bootstrapDatum: { name: "single" } }, [
      alice,
    ]);
    expect(first.body.type).to.equal("custom");
    const exhausted = (await stateOf(alice)).find((s) => s.bootstrapName === "single" && s.countdown === "0");
    expect(exhausted, "an exhausted single state").to.not.equal(undefined);
    const again = await w.build({ type: "custom", address: alice.address, certificates: [cert()], bootstrapDatum: { name: "single" } });
    expect(again.body.status.message).to.match(/forked/);
    await w.confirm(await w.signAndSubmit(again.body.unsignedTransaction!, [alice]));
    const byId = await w.build({ address: alice.address, certificates: [cert()], stateId: exhausted!.stateId });
    expect(byId.body.status.code).to.equal("ERROR");
    expect(byId.body.status.message).to.match(/no transactions left/);
  });

  it("answers every pre-check with its code and a message saying what to do, never a 500", async () => {
    const stranger = newWallet();
    const cases: [Record<string, unknown>, string, RegExp, number?][] = [
      [{ address: "addr_test1xyz", certificates: [cert()] }, "ERROR", /not a valid bech32/],
      [{ address: w.f.scripts.proxy.address, certificates: [cert()] }, "ERROR", /key payment credential/],
      [{ address: alice.address, certificates: [{ hash: "abc" }] }, "ERROR", /even-length/],
      [{ address: alice.address, certificates: [] }, "ERROR", /non-empty/],
      [{ address: alice.address }, "ERROR", /certificates/],
      [{ type: "nope", address: alice.address, certificates: [cert()] }, "ERROR", /Unknown transaction type/],
      [{ address: alice.address, certificates: [cert()], stateId: "ab".repeat(32) }, "ERROR", /Unknown state/],
      [{ address: alice.address, certificates: [cert()], state_id: "zz" }, "ERROR", /64 hexadecimal/],
      [
        { type: "custom", address: alice.address, certificates: [cert()], bootstrap_datum: { name: "missing" } },
        "ERROR",
        /Unknown bootstrap/,
      ],
      [{ address: stranger.address, certificates: [cert()] }, "INSUFFICIENT_FUNDS", /No UTxOs/],
      [{ type: "burn_state", address: alice.address }, "ERROR", /stateId is required/],
      [
        {
          type: "bootstrap",
          address: service.address,
          bootstrapDatum: {
            name: "zero",
            fee: 1,
            feeInterval: 0,
            ttl: farFuture,
            transactionLimit: 3,
            batchSize: 1,
            feeReceiverAddresses: [alice.address],
          },
        },
        "ERROR",
        /feeInterval/,
      ],
      [
        {
          type: "bootstrap",
          address: service.address,
          bootstrapDatum: {
            name: "dust",
            fee: 2,
            feeInterval: 1,
            ttl: farFuture,
            transactionLimit: 3,
            batchSize: 1,
            feeReceiverAddresses: [alice.address, service.address],
          },
        },
        "ERROR",
        /minimum UTxO/,
      ],
      [
        {
          type: "bootstrap",
          address: service.address,
          bootstrapDatum: { name: "old", fee: 0, feeInterval: 1, ttl: 1000, transactionLimit: 3, batchSize: 1 },
        },
        "ERROR",
        /ttl/,
      ],
      [
        bootstrapBody("uneven", { fee_interval: 3, transaction_limit: 10 }),
        "ERROR",
        /transactionLimit 10 is not a multiple of feeInterval: a fork would not pay the fee.* Use transactionLimit 9 or 12\./,
      ],
      [bootstrapBody("unpaid", { fee_receiver_addresses: [] }), "ERROR", /charges a fee but names no fee receivers/],
      [
        bootstrapBody("twice", { fee_receiver_addresses: [w.f.actors.feeA.address, w.f.actors.feeA.enterpriseAddress] }),
        "ERROR",
        new RegExp(`names fee receiver ${w.f.actors.feeA.paymentKeyHash} \\(payment credential\\) more than once`),
      ],
      [{ type: "custom", address: alice.address, certificates: [cert()] }, "ERROR", /bootstrapDatum\.name is required for type custom/],
      [{ address: alice.address, certificates: [{ ...cert(), metadata: ["a", "b"] }] }, "ERROR", /certificates\[0\]\.metadata must be/],
      [
        { address: alice.address, certificates: [{ ...cert(), metadata: "x".repeat(100_000) }] },
        "ERROR",
        /too large: the transaction would take \d+ bytes; the chain accepts at most 16384/,
      ],
      [{ type: "init", address: service.address }, "ERROR", /Existing proxy contract/],
      [{ type: "deploy", address: service.address }, "ERROR", /already holds/],
    ];
    for (const [body, code, message] of cases) {
      const res = await w.build(body);
      const shown = JSON.stringify(body).slice(0, 200);
      expect(res.status, shown).to.equal(400);
      expect(res.body.status.code, shown).to.equal(code);
      expect(res.body.status.message, shown).to.match(message);
      // the one error shape: `error` and `message` at the top, beside the build response's own fields
      expect(res.body, shown).to.deep.include({ error: code, message: res.body.status.message, unsignedTransaction: null });
    }
  });

  it("never echoes unbounded input in an error answer", async () => {
    const huge = `addr_test1${"q".repeat(200_000)}`;
    const res = await w.build({ address: huge, certificates: [cert()] });
    expect(res.status).to.equal(400);
    expect(JSON.stringify(res.body).length).to.be.below(2_000);
    const typed = await w.build({ type: "t".repeat(100_000), address: alice.address, certificates: [cert()] });
    expect(typed.status).to.equal(400);
    expect(JSON.stringify(typed.body).length).to.be.below(2_000);
  });

  it("answers INSUFFICIENT_FUNDS, not COLLATERAL_REQUIRED, to a wallet holding nothing but its collateral", async () => {
    const issuer = w.f.actors.issuer;
    const fresh = newWallet();
    await w.f.chain.submit(
      {
        utxos: w.f.chain.utxosAt(issuer.address),
        changeAddress: issuer.address,
        outputs: [{ address: fresh.address, lovelace: 5n * ADA }],
      },
      [issuer],
    );
    const res = await w.build({ address: fresh.address, certificates: [cert()] });
    expect(res.status).to.equal(400);
    expect(res.body.status.code).to.equal("INSUFFICIENT_FUNDS");
    expect(res.body.status.message).to.match(/Only the collateral UTxO is left/);
    // prepare-collateral agrees: there is nothing to split the collateral from
    const split = await w.prepareCollateral(fresh.address);
    expect(split.status).to.equal(400);
    expect(split.body.status.code).to.equal("INSUFFICIENT_FUNDS");
  });

  it("refuses a bootstrap whose whitelist excludes the caller", async () => {
    await createBootstrap("members", { whitelisted_addresses: [w.f.actors.issuer.address], fee: 0 });
    const res = await w.build({ type: "custom", address: alice.address, certificates: [cert()], bootstrapDatum: { name: "members" } });
    expect(res.status).to.equal(400);
    expect(res.body.status.message).to.match(/not whitelisted/);
  });

  it("lets no stranger block a wallet: builds anyone requests for alice's address never make her own build wait", async () => {
    // alice holds a state (forked above) and a few UTxOs; a stranger asks for builds in her name again and again
    // (he cannot sign them, but every build hands inputs out)
    for (let i = 0; i < 6; i++) {
      const strangers = await w.build({ type: "default", address: alice.address, certificates: [cert()] });
      expect(strangers.status, JSON.stringify(strangers.body.status)).to.equal(200);
    }
    const own = await w.build({ type: "default", address: alice.address, certificates: [cert()] });
    expect(own.status, JSON.stringify(own.body.status)).to.equal(200);
    await w.confirm(await w.signAndSubmit(own.body.unsignedTransaction!, [alice]));
  });

  it("answers PENDING_TRANSACTION while every UTxO is locked by an in-flight transaction", async () => {
    const bob = w.f.actors.bob;
    const split = await w.prepareCollateral(bob.address);
    await w.signAndSubmit(split.body.unsignedTransaction!, [bob]); // bob's only UTxO is now locked
    const res = await w.prepareCollateral(bob.address);
    expect(res.status).to.equal(409);
    expect(res.body.status.code).to.equal("PENDING_TRANSACTION");
    w.f.chain.devnet.produceBlock();
  });

  it("burn_state burns the state and returns its ADA to the owner", async () => {
    const [state] = await stateOf(alice);
    const res = await w.build({ type: "burn_state", address: alice.address, stateId: state!.stateId });
    expect(res.status, JSON.stringify(res.body.status)).to.equal(200);
    const tx = decodeTx(res.body.unsignedTransaction!);
    expect((tx.mint as Record<string, Record<string, bigint>>)[w.f.policy]).to.deep.equal({ [state!.stateId]: -1n });
    await w.confirm(await w.signAndSubmit(res.body.unsignedTransaction!, [alice]));
    await pollUntil(async () => ((await stateOf(alice)).every((s) => s.stateId !== state!.stateId) ? true : undefined), "state burned");
  });

  it("ends the validity before a near ttl, and refuses a state whose ttl has passed", async () => {
    const ttl = w.f.chain.now() + 5 * 60_000;
    await createBootstrap("short", { fee: 0, ttl });
    const c = cert();
    const res = await w.build({ type: "custom", address: alice.address, certificates: [c], bootstrapDatum: { name: "short" } });
    expect(res.status, JSON.stringify(res.body.status)).to.equal(200);
    const ttlSlot = Number(decodeTx(res.body.unsignedTransaction!).ttlSlot);
    expect(w.f.chain.slotToPosixMs(ttlSlot)).to.be.below(ttl);
    expect(ttlSlot).to.be.below(w.f.chain.currentSlot() + 600);
    await w.confirm(await w.signAndSubmit(res.body.unsignedTransaction!, [alice]));
    issued.push(c.hash);
    const short = await pollUntil(async () => (await stateOf(alice)).find((s) => s.bootstrapName === "short"), "the short-lived state");
    w.f.chain.advanceSlots(6 * 60);
    const late = await w.build({ address: alice.address, certificates: [cert()], stateId: short.stateId });
    expect(late.status).to.equal(400);
    expect(late.body.status.code).to.equal("ERROR");
    expect(late.body.status.message).to.match(/expired at .* use another one/);
  });

  it("verify answers every issued hash", async () => {
    for (const hash of issued) {
      const res = await pollUntil(async () => {
        const r = await http(`${w.mesh.api}/verify/${hash}`);
        return r.status === 200 ? r : undefined;
      }, `verify ${hash}`);
      expect((res.json as { hash: string; issuer: string }[])[0]).to.include({ hash, issuer: alice.paymentKeyHash });
    }
  });
});
